// `spoolforge/postgres`: the conversation log in PostgreSQL. The only entry that loads `pg`
// (an optional peer dependency), so `spoolforge` itself never needs it installed.
export {
  PostgresConversationLogBackend,
  type PostgresConversationLogOptions,
} from './postgres-conversation-log-backend.js';
