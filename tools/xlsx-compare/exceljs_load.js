// Loads a workbook with exceljs and prints the number of cells read.
const ExcelJS = require("exceljs");
(async () => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(process.argv[2]);
  let cells = 0;
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell(() => cells++)));
  console.log(cells);
})();
