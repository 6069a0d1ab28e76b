// Loads a workbook with SheetJS (npm "xlsx") and prints the number of cells read.
const XLSX = require("xlsx");
const wb = XLSX.readFile(process.argv[2], { dense: false });
let cells = 0;
for (const name of wb.SheetNames) {
  const ws = wb.Sheets[name];
  for (const key of Object.keys(ws)) if (key[0] !== "!") cells++;
}
console.log(cells);
