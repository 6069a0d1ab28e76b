// Apache POI (HSSF, Debian's libapache-poi-java) side of the sst conformance adapter and of the
// writer check. Run through sst_poi.py, which compiles this file once into build/.
//
//   SstPoi dump FILE
//     The shared string table of FILE as the canonical dump (conformance/SPEC.md, format sst):
//     a workbook (CFB container or bare BIFF stream): POI's record layer (RecordFactory, the one
//     HSSFWorkbook reads with) over the Workbook stream; the first SSTRecord's strings;
//     a record file (named .sst): RecordInputStream + new SSTRecord(in), then only one EXTSST may follow.
//     Exit 0 accepted, 1 rejected ("error: <class>"), 2 unsupported (BIFF2-7, encrypted).
//     With $DOCCONFORM_PHASES set, also times the phases sst_serialize (the table serialized
//     again, with the digest of its bytes) and xls_write (a workbook of its strings written
//     whole), conformance/SPEC.md, format sst.
//   SstPoi write STRINGS OUT.xls
//     Writes a workbook with HSSFWorkbook, one cell per line of the strings file STRINGS
//     (conformance/SPEC.md, format sst, "Strings files": a JSON string, or an object whose "s" is
//     the text) in the cell order of "docconform xls write" (column by column, 65,536 rows per
//     column). Exit 0 written; 1 ("error: <class>") when the file is malformed or POI refuses a
//     string. With $DOCCONFORM_PHASES set, also times the phase sst_serialize.
//   SstPoi cells XLS
//     Opens XLS with HSSFWorkbook and prints every cell's string in the cell order of
//     "docconform xls write" (sheet by sheet, column by column, row by row), one canonical
//     quoted string per line, after a "cells N" line (conformance/sst_real_readers.py).
import java.io.ByteArrayInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.hssf.OldExcelFormatException;
import org.apache.poi.hssf.record.BOFRecord;
import org.apache.poi.hssf.record.ExtSSTRecord;
import org.apache.poi.hssf.record.Record;
import org.apache.poi.hssf.record.RecordFactory;
import org.apache.poi.hssf.record.RecordInputStream;
import org.apache.poi.hssf.record.SSTRecord;
import org.apache.poi.hssf.usermodel.HSSFCell;
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
      sst = path.toLowerCase(java.util.Locale.ROOT).endsWith(".sst") ? recordFileSst(bytes) : workbookSst(bytes);
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
    String phaseFile = System.getenv("DOCCONFORM_PHASES");
    if (phaseFile != null && sst != null) timeReadTable(sst, phaseFile);
    return 0;
  }

  // The phases of format sst: the table POI read, serialized again into a new array (as
  // HSSFWorkbook.write does it), then a workbook holding one cell per string written whole into
  // memory. The workbook is built before its timing.
  static void timeReadTable(SSTRecord sst, String phaseFile) throws Exception {
    int size = sst.getRecordSize();
    byte[][] last = new byte[1][];
    timePhase(phaseFile, "sst_serialize", () -> {
      last[0] = new byte[size];
      return sst.serialize(0, last[0]);
    }, () -> last[0]);
    try (HSSFWorkbook wb = new HSSFWorkbook()) {
      HSSFSheet sheet = wb.createSheet("Sheet1");
      for (int i = 0; i < sst.getNumUniqueStrings(); ++i) cellAt(sheet, i).setCellValue(sst.getString(i).getString());
      timePhase(phaseFile, "xls_write", () -> {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(1 << 20);
        wb.write(sink);
        return sink.size();
      }, null);
    }
  }

  // The cell of the i-th string in the layout of "docconform xls write": column by column,
  // ROWS rows each.
  static HSSFCell cellAt(HSSFSheet sheet, int i) {
    int row = i % ROWS, col = i / ROWS;
    HSSFRow r = sheet.getRow(row);
    if (r == null) r = sheet.createRow(row);
    return r.createCell(col);
  }

  interface Phase { long run() throws Exception; }  // returns the bytes one run produced
  interface Output { byte[] get(); }

  // Phase timings (conformance/SPEC.md section 2, "Phase timings"): once untimed, then timed at
  // least 5 times and more until the timed runs took 1 s in all (at most 1,000); the median is
  // appended to the phase file, with the SHA-256 of the last run's output when one is given.
  static void timePhase(String phaseFile, String name, Phase phase, Output output) throws Exception {
    long bytes = phase.run();
    List<Double> times = new ArrayList<>();
    double total = 0;
    while (times.size() < 5 || (total < 1.0 && times.size() < 1000)) {
      long t0 = System.nanoTime();
      bytes = phase.run();
      double seconds = (System.nanoTime() - t0) / 1e9;
      times.add(seconds);
      total += seconds;
    }
    Collections.sort(times);
    int middle = times.size() / 2;
    double median = times.size() % 2 == 1 ? times.get(middle) : (times.get(middle - 1) + times.get(middle)) / 2;
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %.9f %d", name, median, bytes));
    if (output != null) {
      line.append(" sha256:");
      for (byte b : MessageDigest.getInstance("SHA-256").digest(output.get())) line.append(String.format("%02x", b & 0xFF));
    }
    line.append('\n');
    Files.write(Paths.get(phaseFile), line.toString().getBytes(StandardCharsets.US_ASCII),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  static int cells(String path) throws Exception {
    try (FileInputStream in = new FileInputStream(path); HSSFWorkbook wb = new HSSFWorkbook(in)) {
      StringBuilder out = new StringBuilder();
      int n = 0;
      for (int s = 0; s < wb.getNumberOfSheets(); ++s) {
        HSSFSheet sheet = wb.getSheetAt(s);
        int columns = 0;
        for (int r = 0; r <= sheet.getLastRowNum(); ++r) {
          HSSFRow row = sheet.getRow(r);
          if (row != null) columns = Math.max(columns, row.getLastCellNum());
        }
        for (int c = 0; c < columns; ++c) {
          for (int r = 0; r <= sheet.getLastRowNum(); ++r) {
            HSSFRow row = sheet.getRow(r);
            HSSFCell cell = row == null ? null : row.getCell(c);
            if (cell == null) continue;
            out.append(quoted(cell.getRichStringCellValue().getString())).append('\n');
            ++n;
          }
        }
      }
      System.out.print("cells " + n + "\n" + out);
    }
    return 0;
  }

  static final class Malformed extends Exception {
    Malformed(String why) { super(why); }
  }

  // A strings-file line: pos[0] walks through it.
  static String cell(String line) throws Malformed {
    int[] pos = {0};
    skipSpace(line, pos);
    String text = null;
    if (peek(line, pos) == '{') {
      ++pos[0];
      skipSpace(line, pos);
      while (peek(line, pos) != '}') {
        String key = string(line, pos);
        skipSpace(line, pos);
        expect(line, pos, ':');
        skipSpace(line, pos);
        if (key.equals("s")) text = string(line, pos);
        else skipValue(line, pos);
        skipSpace(line, pos);
        if (peek(line, pos) == ',') { ++pos[0]; skipSpace(line, pos); }
      }
      ++pos[0];
      if (text == null) throw new Malformed("an object without \"s\"");
    } else {
      text = string(line, pos);
    }
    skipSpace(line, pos);
    if (pos[0] != line.length()) throw new Malformed("text after the value at offset " + pos[0]);
    return text;
  }

  static char peek(String line, int[] pos) throws Malformed {
    if (pos[0] >= line.length()) throw new Malformed("the line ends early");
    return line.charAt(pos[0]);
  }

  static void expect(String line, int[] pos, char c) throws Malformed {
    if (peek(line, pos) != c) throw new Malformed("'" + c + "' expected at offset " + pos[0]);
    ++pos[0];
  }

  static void skipSpace(String line, int[] pos) {
    while (pos[0] < line.length() && " \t\r".indexOf(line.charAt(pos[0])) >= 0) ++pos[0];
  }

  // A JSON string; \\uXXXX escapes give any UTF-16 code unit, lone surrogates included.
  static String string(String line, int[] pos) throws Malformed {
    expect(line, pos, '"');
    StringBuilder out = new StringBuilder();
    for (char c = peek(line, pos); c != '"'; c = peek(line, pos)) {
      ++pos[0];
      if (c < 0x20) throw new Malformed("a control character in a string at offset " + (pos[0] - 1));  // RFC 8259 7
      if (c != '\\') { out.append(c); continue; }
      char e = peek(line, pos);
      ++pos[0];
      int at = "\"\\/bfnrt".indexOf(e);
      if (at >= 0) {
        out.append("\"\\/\b\f\n\r\t".charAt(at));
      } else if (e == 'u' && pos[0] + 4 <= line.length()) {
        try {
          out.append((char) Integer.parseInt(line.substring(pos[0], pos[0] + 4), 16));
        } catch (NumberFormatException x) {
          throw new Malformed("a bad \\u escape at offset " + pos[0]);
        }
        pos[0] += 4;
      } else {
        throw new Malformed("a bad escape at offset " + pos[0]);
      }
    }
    ++pos[0];
    return out.toString();
  }

  // The value of another key ("runs", "ext"): strings, numbers and nested arrays, not kept.
  static void skipValue(String line, int[] pos) throws Malformed {
    int depth = 0;
    do {
      char c = peek(line, pos);
      if (c == '"') { string(line, pos); continue; }
      if (c == '[' || c == '{') ++depth;
      if (c == ']' || c == '}') --depth;
      if (depth < 0 || (depth == 0 && c == ',')) return;
      ++pos[0];
    } while (depth > 0 || (pos[0] < line.length() && ",}".indexOf(line.charAt(pos[0])) < 0));
  }

  static int write(String stringsPath, String outPath) throws Exception {
    List<String> lines;
    try {
      lines = Files.readAllLines(Paths.get(stringsPath), StandardCharsets.UTF_8);
    } catch (java.nio.charset.CharacterCodingException e) {  // JSON text is UTF-8 (RFC 8259 8.1)
      System.err.println(stringsPath + ": not UTF-8: " + e + "\nerror: format");
      return 1;
    }
    try (HSSFWorkbook wb = new HSSFWorkbook()) {
      HSSFSheet sheet = wb.createSheet("Sheet1");
      int i = 0;
      for (int n = 0; n < lines.size(); ++n) {
        if (lines.get(n).chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r')) continue;  // a blank line
        try {
          cellAt(sheet, i++).setCellValue(cell(lines.get(n)));
        } catch (Malformed e) {
          System.err.println(stringsPath + ": line " + (n + 1) + ": " + e.getMessage() + "\nerror: format");
          return 1;
        } catch (IllegalArgumentException e) {  // POI's cell limits (32,767 characters)
          System.err.println(stringsPath + ": line " + (n + 1) + ": " + e.getMessage() + "\nerror: range");
          return 1;
        }
      }
      try (FileOutputStream out = new FileOutputStream(outPath)) {
        wb.write(out);
      }
      String phaseFile = System.getenv("DOCCONFORM_PHASES");
      if (phaseFile != null) timeSstSerialization(wb, phaseFile);
    }
    return 0;
  }

  // Phase sst_serialize of format sstw: the workbook's own SSTRecord serialized into a new array.
  static void timeSstSerialization(HSSFWorkbook wb, String phaseFile) throws Exception {
    SSTRecord sst = null;
    for (Record r : wb.getInternalWorkbook().getRecords()) {
      if (r instanceof SSTRecord) sst = (SSTRecord) r;
    }
    if (sst == null) return;  // a workbook without strings has no table to time
    SSTRecord table = sst;
    int size = table.getRecordSize();
    timePhase(phaseFile, "sst_serialize", () -> table.serialize(0, new byte[size]), null);
  }

  // sstw as sst_writing.py judges: the workbook written, then our reader's dump of it; a workbook
  // it cannot read gives the line `unreadable: <its last error line>` (a wrong result).
  static int writeAndJudge(String stringsPath, String docconform) throws Exception {
    Path work = Files.createTempDirectory("sstw-poi-");
    Path written = work.resolve("written.xls");
    try {
      int status = write(stringsPath, written.toString());
      if (status != 0) return status;
      Process reader = new ProcessBuilder(docconform, "sst", "dump", written.toString())
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Thread errors = new Thread(() -> {
        try {
          reader.getErrorStream().transferTo(err);
        } catch (java.io.IOException e) {
          // the stream ends with the process
        }
      });
      errors.start();
      reader.getInputStream().transferTo(System.out);
      int exit = reader.waitFor();
      errors.join();
      if (exit != 0) {
        String[] lines = err.toString(StandardCharsets.ISO_8859_1).replaceAll("[^\\x00-\\x7f]", "?").strip().split("\\R");
        String why = lines.length == 0 || lines[lines.length - 1].isEmpty() ? "exit " + exit : lines[lines.length - 1];
        System.out.print("docconform-dump sst 1\nunreadable: " + why + "\n");
      }
      return 0;
    } finally {
      Files.deleteIfExists(written);
      Files.deleteIfExists(work);
    }
  }

  // Batch mode (conformance/SPEC.md section 2): input paths on stdin, one per line; for each, one
  // frame on stdout with the status, stdout and stderr of `dump` (sst) or `writeAndJudge` (sstw).
  // Every input reads its file anew into new POI objects; nothing is kept between inputs.
  static void batch(String format, String docconform) throws Exception {
    PrintStream frames = System.out;
    BufferedReader requests = new BufferedReader(new InputStreamReader(System.in));
    for (String path; (path = requests.readLine()) != null;) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      System.setOut(new PrintStream(out, true));
      System.setErr(new PrintStream(err, true));
      int status;
      try {
        status = format.equals("sst") ? dump(path) : writeAndJudge(path, docconform);
      } catch (Throwable e) {  // what an uncaught one does to a run of one input: exit 1, the trace
        e.printStackTrace();
        status = 1;
      }
      System.out.flush();
      System.err.flush();
      frames.write(("frame " + (status & 0xff) + " " + out.size() + " " + err.size() + "\n").getBytes(StandardCharsets.US_ASCII));
      out.writeTo(frames);
      err.writeTo(frames);
      frames.write("end\n".getBytes(StandardCharsets.US_ASCII));
      frames.flush();
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("batch")) {
      batch(args[1], args.length > 2 ? args[2] : "");
    } else if (args.length == 2 && args[0].equals("dump")) {
      System.exit(dump(args[1]));
    } else if (args.length == 3 && args[0].equals("write")) {
      System.exit(write(args[1], args[2]));
    } else if (args.length == 2 && args[0].equals("cells")) {
      System.exit(cells(args[1]));
    } else {
      System.err.println("usage: SstPoi dump FILE | SstPoi write STRINGS OUT.xls | SstPoi cells XLS");
      System.exit(64);
    }
  }
}
