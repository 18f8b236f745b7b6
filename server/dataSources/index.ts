/** The door of dataSources: what other parts of the server may use (they import nothing else from this folder). */
export { createDataSource, ensureIntegrationDataSource, removeDataSource, updateDataSource } from './dataSources';
export { dataSourcesRouter } from './dataSourcesRoutes';
export { startFieldTypes } from './fieldTypes';
export type { FieldTypesService } from './fieldTypes';
