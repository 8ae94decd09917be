// TODO(vocab): src/server/routes/import-routes.ts imports these from here; import them from
// #shared/statements/report.ts there and remove this file.
export { NotAStatementError, ReadBudgetError, type ParsedStatement } from '#shared/statements/report.ts';
