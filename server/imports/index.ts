/** The door of imports: what other parts of the server may use (they import nothing else from this folder). */
export { removeOrphanUploads } from './importJobs';
export { attachImportRooms } from './importRooms';
export { importsRouter } from './importsRoutes';
