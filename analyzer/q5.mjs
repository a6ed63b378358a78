import { Db } from '/work/main/analyzer/dist/db.js';
const db = await Db.open();
for (const q of [`SELECT {'a_b': 1, 'c_d': 'x'}::STRUCT(aB INTEGER, cD VARCHAR) AS v`, `SELECT [{'a_b': 1, 'c_d': 'x'}]::STRUCT(aB INTEGER, cD VARCHAR)[] AS v`]) {
  try { console.log(JSON.stringify(await db.all(q))); } catch (e) { console.log('ERR', e.message); }
}
