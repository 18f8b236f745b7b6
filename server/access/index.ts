/** The door of access: what other parts of the server may use (they import nothing else from this folder). */
export { API_TOKEN_PREFIX, accountsHandle, createAccounts } from './accounts/accounts';
export type { Principal } from './accounts/accounts';
export { authRouter } from './accounts/authRoutes';
export { isCrossSiteHandshake, readSessionCookie } from './accounts/cookies';
export { createAccountModels } from './accounts/models';
export { failedCredentials } from './failedCredentials';
export { askerOfRequest, bearerToken, isAdminToken, principalOf, resolvePrincipal, safeEqual } from './guards';
export type { IngestState } from './guards';
export { askerOf, checkSourceInBody, embedTokenFilters, embedTokenOpens, embedTokenReads, hasRole, keyWritesTo, mayFollowSource, mayIngestInto, mayUseAlert, mayUseDashboard, mayUseImportJob, mayUseSource, readsReceiverAnswers, refuseLimited, signInAs, requireAlertUse, requireDashboardUse, requireSourceUse, shareLinkFilters, shareLinkOpens, shareLinkReads, termsOf, usableAlerts, usableDashboards, usableSources, usableSourcesOf } from './policy';
export type { AlertTerms, Asker, EmbedTokenTerms, ShareLinkTerms } from './policy';
export { createRateLimits, rateLimitsHandle } from './rateLimits';
export { resourceRouter } from './resourceRouter';
export { TEAM, draftRoomDashboard, isPrivateRoom, mayHold, readableDashboard, teamOf } from './roomAccess';
export type { Access } from './roomAccess';
export { sendMail } from './users/mailer';
export { usersRouter } from './users/usersRoutes';
