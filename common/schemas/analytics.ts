/** Days of history in views per day. */
export const VIEW_HISTORY_DAYS = 30;

/** One dashboard's audience: viewers right now (every process) and views per UTC day. */
export interface DashboardAnalyticsDto {
  dashboardId: string;
  name: string;
  isPublished: boolean;
  /** Open viewer pages right now, public and through share links. */
  viewers: number;
  /** The last VIEW_HISTORY_DAYS UTC days, oldest first, today last. */
  viewsByDay: { day: string; views: number }[];
}

/** The live push to the admin room when a dashboard's audience changes. */
export interface ViewersChangedEvent {
  dashboardId: string;
  viewers: number;
  /** Views today (UTC) after this change. */
  viewsToday: number;
  day: string;
}
