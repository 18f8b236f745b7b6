import mongoose, { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

const options = { minimize: false, versionKey: false } as const;

/** A person of the team. No password hash until the invitation is accepted. */
const userSchema = new Schema(
  {
    email: { type: String, required: true, unique: true },
    name: { type: String, default: '' },
    role: { type: String, required: true },
    /** Dashboards this person is limited to; null for every dashboard. */
    dashboardIds: { type: [String], default: null },
    disabled: { type: Boolean, default: false },
    passwordHash: { type: String, default: null },
    lastSignInAt: { type: Date, default: null },
  },
  { ...options, timestamps: true },
);

/** A signed-in browser. Only the SHA-256 of the cookie's id is stored. */
const sessionSchema = new Schema(
  {
    idHash: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    /** The earlier of idle expiry (lastSeenAt + 7 days) and absolute expiry (createdAt + 30 days). */
    expiresAt: { type: Date, required: true },
    userAgent: { type: String, default: '' },
    address: { type: String, default: null },
  },
  options,
);
sessionSchema.index({ userId: 1 });
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/** A personal API token: acts with its owner's role. Only the SHA-256 of the token is stored. */
const apiTokenSchema = new Schema(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    hint: { type: String, required: true },
    expiresAt: { type: Date, default: null },
    lastUsedAt: { type: Date, default: null },
  },
  { ...options, timestamps: { createdAt: true, updatedAt: false } },
);
apiTokenSchema.index({ userId: 1 });

/** An invitation or password reset link: single use, 7 days. Only the SHA-256 of the token is stored. */
const invitationSchema = new Schema(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    kind: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  options,
);
invitationSchema.index({ userId: 1 });

/** A short lease on one named change (the team's admins), held by one request in any process. */
const leaseSchema = new Schema({ _id: { type: String, required: true }, holder: { type: String, required: true }, until: { type: Date, required: true } }, options);

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: mongoose.Types.ObjectId; createdAt: Date; updatedAt: Date };
export type SessionDoc = InferSchemaType<typeof sessionSchema> & { _id: mongoose.Types.ObjectId };
export type ApiTokenDoc = InferSchemaType<typeof apiTokenSchema> & { _id: mongoose.Types.ObjectId; createdAt: Date };
export type InvitationDoc = InferSchemaType<typeof invitationSchema> & { _id: mongoose.Types.ObjectId };
export type LeaseDoc = InferSchemaType<typeof leaseSchema>;

export interface AccountModels {
  User: Model<UserDoc>;
  Session: Model<SessionDoc>;
  ApiToken: Model<ApiTokenDoc>;
  Invitation: Model<InvitationDoc>;
  Lease: Model<LeaseDoc>;
}

/** Registers the account models on a connection and builds their indexes. */
export async function createAccountModels(conn: Connection): Promise<AccountModels> {
  const models: AccountModels = {
    User: conn.model<UserDoc>('User', userSchema, 'users'),
    Session: conn.model<SessionDoc>('Session', sessionSchema, 'sessions'),
    ApiToken: conn.model<ApiTokenDoc>('ApiToken', apiTokenSchema, 'apitokens'),
    Invitation: conn.model<InvitationDoc>('Invitation', invitationSchema, 'invitations'),
    Lease: conn.model<LeaseDoc>('Lease', leaseSchema, 'leases'),
  };
  await Promise.all(Object.values(models).map((m: Model<unknown>) => m.createIndexes()));
  return models;
}
