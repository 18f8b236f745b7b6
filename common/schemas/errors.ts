/** The one JSON shape of every failed API call. */
export interface ApiErrorBody {
  error: {
    /** Stable machine code, e.g. `not_found`, `validation_failed`. */
    code: string;
    /** What went wrong, in words a person can act on. */
    message: string;
    /** For validation failures: which field and why. */
    fields?: { path: string; message: string }[];
  };
}
