/** The door of the Zendesk provider: what the integrations room uses of it. */
export { zendeskRouter } from './routes';
export { beginSync as beginZendeskSync } from './sync';
export { forgetEntities as forgetZendeskEntities, recordsSummary as zendeskRecordsSummary } from './service';
