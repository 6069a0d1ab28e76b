// Run by pdf_mutool.py as `mutool run pdf_mutool_pages.js FILE`: MuPDF opens the file and
// resolves every object; this script only applies conformance/SPEC.md, format pdf,'s page-tree rule 8
// (walk from /Root /Pages, count leaves, a node reached twice is an error) and prints
//   version <the header version MuPDF read>
//   pages <leaf count>
// or a line "reject <reason>".
var doc = new PDFDocument(scriptArgs[0]);

function walk(root) {
  var seen = {};
  var leaves = 0;
  var stack = [root];
  while (stack.length > 0) {
    var node = stack.pop();
    if (node.isIndirect()) {
      var key = node.asIndirect();
      if (seen[key]) return "page node reached twice";
      seen[key] = true;
    } else if (node !== root) {
      return "kid is not a reference";
    }
    var type = node.get("Type");
    var kids = node.get("Kids");
    var intermediate = type.isName() ? type.asName() == "Pages" : kids.isArray();
    if (!intermediate) {
      ++leaves;
      continue;
    }
    if (!kids.isArray()) continue;
    // Push in reverse so that pages are visited in tree order.
    for (var i = kids.length - 1; i >= 0; --i) stack.push(kids.get(i));
  }
  return leaves;
}

var catalog = doc.getTrailer().get("Root");
if (!catalog.isDictionary()) {
  print("reject /Root is not a dictionary");
} else {
  var result = walk(catalog.get("Pages"));
  print("version " + doc.getMetaData("format").replace(/^PDF /, ""));
  print(typeof result == "number" ? "pages " + result : "reject " + result);
}
