import fs from 'node:fs';
import { parseStatement } from '#server/import/report.ts';
for (const file of process.argv.slice(2)) {
  const t = performance.now();
  try {
    const r = await parseStatement(fs.readFileSync(file), file);
    console.log('==', file.split('/').pop(), r.format, JSON.stringify(r.account), r.accounting, 'deals', r.deals.length, 'pos', r.positions.length, 'warn', r.warnings.length, (performance.now() - t).toFixed(0) + 'ms');
    console.log('   opening', JSON.stringify(r.opening), 'rows', r.rowsBalance, 'floating', r.floating);
    console.log('   stated', JSON.stringify(r.stated));
    console.log('   ' + r.warnings.slice(0, 5).join('\n   '));
  } catch (e) { console.log('==', file.split('/').pop(), 'ERR', (e as Error).message); }
}
