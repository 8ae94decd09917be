// TODO(vocab): src/server/routes/import-routes.ts imports money from here; import it from
// #shared/statements/stated.ts there and remove this file.
export { money } from '#shared/statements/stated.ts';
