// Apache POI (HSSF, Debian's libapache-poi-java) side of the sst conformance adapter and of the
// writer check. Run through sst_poi.py, which compiles this file once into build/.
//
//   SstPoi dump FILE
//     The shared string table of FILE as the canonical dump (conformance/SPEC.md, format sst):
//     a workbook (CFB container or bare BIFF stream): POI's record layer (RecordFactory, the one
//     HSSFWorkbook reads with) over the Workbook stream; the first SSTRecord's strings;
//     a .sst record file: RecordInputStream + new SSTRecord(in), then only one EXTSST may follow.
//     Exit 0 accepted, 1 rejected ("error: <class>"), 2 unsupported (BIFF2-7, encrypted).
//   SstPoi write STRINGS OUT.xls
//     Writes a workbook with HSSFWorkbook, one cell per string in the cell order of
//     "docconform xls write" (column by column, 65,536 rows per column). STRINGS holds one string
//     per line as the hex digits of its UTF-16 code units (4 per unit; an empty line is "").
import java.io.ByteArrayInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.hssf.OldExcelFormatException;
import org.apache.poi.hssf.record.BOFRecord;
import org.apache.poi.hssf.record.ExtSSTRecord;
import org.apache.poi.hssf.record.Record;
import org.apache.poi.hssf.record.RecordFactory;
import org.apache.poi.hssf.record.RecordInputStream;
import org.apache.poi.hssf.record.SSTRecord;
import org.apache.poi.hssf.usermodel.HSSFRow;
import org.apache.poi.hssf.usermodel.HSSFSheet;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;

public class SstPoi {
  static final int ROWS = 65536;

  static final class Unsupported extends Exception {
    Unsupported(String why) { super(why); }
  }

  static String quoted(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c >= 0x20 && c < 0x7F) sb.append(c);
      else sb.append(String.format("\\u%04X", (int) c));
    }
    return sb.append('"').toString();
  }

  static boolean isCfb(byte[] b) {
    return b.length >= 8 && (b[0] & 0xFF) == 0xD0 && (b[1] & 0xFF) == 0xCF && (b[2] & 0xFF) == 0x11 && (b[3] & 0xFF) == 0xE0;
  }

  static boolean isBareBiff(byte[] b) {
    return b.length >= 2 && b[0] == 0x09 && (b[1] & 0xF1) == 0;
  }

  static SSTRecord workbookSst(byte[] bytes) throws Exception {
    InputStream stream;
    if (isCfb(bytes)) {
      POIFSFileSystem fs = new POIFSFileSystem(new ByteArrayInputStream(bytes));
      String name = HSSFWorkbook.getWorkbookDirEntryName(fs.getRoot());  // Workbook, or OldExcelFormatException
      stream = fs.createDocumentInputStream(name);
    } else {
      stream = new ByteArrayInputStream(bytes);
    }
    List<Record> records = RecordFactory.createRecords(stream);
    if (records.isEmpty() || !(records.get(0) instanceof BOFRecord)) throw new IllegalStateException("no BOF record");
    BOFRecord bof = (BOFRecord) records.get(0);
    if (bof.getVersion() != BOFRecord.VERSION) throw new Unsupported("BIFF version " + bof.getVersion());
    for (Record r : records) {
      if (r instanceof SSTRecord) return (SSTRecord) r;
      if (r.getSid() == 0x000A) break;  // EOF of the globals substream
    }
    return null;
  }

  static SSTRecord recordFileSst(byte[] bytes) {
    RecordInputStream in = new RecordInputStream(new ByteArrayInputStream(bytes));
    if (!in.hasNextRecord()) throw new IllegalStateException("empty record file");
    in.nextRecord();
    if (in.getSid() != SSTRecord.sid) throw new IllegalStateException("first record is not an SST");
    SSTRecord sst = new SSTRecord(in);
    boolean extsst = false;
    while (in.hasNextRecord()) {
      in.nextRecord();
      if (in.getSid() != ExtSSTRecord.sid || extsst) throw new IllegalStateException("record 0x" + Integer.toHexString(in.getSid()) + " after the SST");
      extsst = true;
      new ExtSSTRecord(in);
    }
    return sst;
  }

  static int dump(String path) throws Exception {
    byte[] bytes = Files.readAllBytes(Paths.get(path));
    SSTRecord sst;
    try {
      sst = isCfb(bytes) || isBareBiff(bytes) ? workbookSst(bytes) : recordFileSst(bytes);
    } catch (Unsupported | OldExcelFormatException | EncryptedDocumentException e) {
      System.err.println("error: unsupported " + e.getMessage());
      return 2;
    } catch (Exception e) {  // POI signals malformed input with assorted runtime exceptions
      System.err.println("error: " + e.getClass().getSimpleName() + " " + e.getMessage());
      return 1;
    }
    int count = sst == null ? 0 : sst.getNumUniqueStrings();
    StringBuilder out = new StringBuilder("docconform-dump sst 1\nstrings ").append(count).append('\n');
    for (int i = 0; i < count; ++i) out.append(quoted(sst.getString(i).getString())).append('\n');
    System.out.print(out);
    System.out.flush();
    return 0;
  }

  static String fromHex(String line) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i + 4 <= line.length(); i += 4) sb.append((char) Integer.parseInt(line.substring(i, i + 4), 16));
    return sb.toString();
  }

  static void write(String stringsPath, String outPath) throws Exception {
    List<String> lines = Files.readAllLines(Paths.get(stringsPath));
    try (HSSFWorkbook wb = new HSSFWorkbook()) {
      HSSFSheet sheet = wb.createSheet("Sheet1");
      for (int i = 0; i < lines.size(); ++i) {
        int row = i % ROWS, col = i / ROWS;
        HSSFRow r = sheet.getRow(row);
        if (r == null) r = sheet.createRow(row);
        r.createCell(col).setCellValue(fromHex(lines.get(i)));
      }
      try (FileOutputStream out = new FileOutputStream(outPath)) {
        wb.write(out);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("dump")) {
      System.exit(dump(args[1]));
    } else if (args.length == 3 && args[0].equals("write")) {
      write(args[1], args[2]);
    } else {
      System.err.println("usage: SstPoi dump FILE | SstPoi write STRINGS OUT.xls");
      System.exit(64);
    }
  }
}
