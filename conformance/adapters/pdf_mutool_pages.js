// Run by pdf_mutool.py as `mutool run pdf_mutool_pages.js FILE [PASSWORD]`: MuPDF opens the file and
// resolves every object; this script only applies conformance/SPEC.md, format pdf,'s page-tree rule 8
// (walk from /Root /Pages, count leaves, a node reached twice is an error) and prints
//   version <the header version MuPDF read>
//   pages <leaf count>
//   encrypt <...> (an encrypted file: the rest of the dump's encrypt line)
// or a line "reject <reason>" ("reject password" when the password opens nothing).
var doc = new PDFDocument(scriptArgs[0]);

// The encrypt line's fields from the /Encrypt dictionary MuPDF read; the key length and the
// methods by the SPEC's rule 10 (RC4 before /V 4, else each crypt filter's /CFM).
function encryption(dict) {
  var v = dict.get("V").valueOf();
  var length = dict.get("Length");
  var bits = v == 1 ? 40 : v == 5 ? 256 : length.isNumber() ? length.valueOf() : v == 4 ? 128 : 40;
  function method(name) {
    if (v < 4) return "RC4";
    if (!name.isName() || name.asName() == "Identity") return "Identity";
    var cfm = dict.get("CF").get(name.asName()).get("CFM");
    var known = { V2: "RC4", AESV2: "AESV2", AESV3: "AESV3" };
    return cfm.isName() && known[cfm.asName()] ? known[cfm.asName()] : "Identity";
  }
  return "Standard V " + v + " R " + dict.get("R").valueOf() + " bits " + bits + " streams " + method(dict.get("StmF")) +
         " strings " + method(dict.get("StrF"));
}

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
if (doc.needsPassword() && !doc.authenticatePassword(scriptArgs.length > 1 ? scriptArgs[1] : "")) {
  print("reject password");
} else if (!catalog.isDictionary()) {
  print("reject /Root is not a dictionary");
} else {
  var result = walk(catalog.get("Pages"));
  print("version " + doc.getMetaData("format").replace(/^PDF /, ""));
  var encrypt = doc.getTrailer().get("Encrypt");
  if (encrypt && encrypt.isDictionary()) print("encrypt " + encryption(encrypt));
  print(typeof result == "number" ? "pages " + result : "reject " + result);
}
