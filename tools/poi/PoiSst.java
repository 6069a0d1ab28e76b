// Apache POI (HSSF) side of the SST benchmark and of the real-reader test.
//
//   PoiSst bench SST_FILE REPEAT WORKBOOK_REPEAT
//     SST_FILE holds SST + CONTINUE (+ EXTSST) records. POI parses them into an SSTRecord (the
//     same strings, runs and phonetic blocks), then times SSTRecord.serialize() REPEAT times
//     (wall and thread CPU time) and,
//     separately, HSSFWorkbook.write() of a workbook with one cell per string (plain text, the
//     cell layout of "docconform xls write"). Prints key=value pairs on one line.
//   PoiSst cells XLS
//     Opens XLS with HSSFWorkbook and prints every cell's string in the cell order of
//     "docconform xls write" (sheet by sheet, column by column, row by row), one canonical
//     quoted string per line (conformance/SPEC.md, format sst), after a "cells N" line.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.poi.hssf.record.RecordInputStream;
import org.apache.poi.hssf.record.SSTRecord;
import org.apache.poi.hssf.usermodel.HSSFCell;
import org.apache.poi.hssf.usermodel.HSSFRow;
import org.apache.poi.hssf.usermodel.HSSFSheet;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;

public class PoiSst {
  static final int ROWS = 65536;

  static String hex(byte[] digest) {
    StringBuilder sb = new StringBuilder();
    for (byte b : digest) sb.append(String.format("%02x", b & 0xFF));
    return sb.toString();
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static String stats(String prefix, double[] t) {
    double min = Double.MAX_VALUE, max = 0;
    for (double v : t) { min = Math.min(min, v); max = Math.max(max, v); }
    return prefix + "median_s=" + median(t) + " " + prefix + "min_s=" + min + " " + prefix + "max_s=" + max;
  }

  static void bench(String path, int repeat, int workbookRepeat) throws Exception {
    byte[] bytes = Files.readAllBytes(Paths.get(path));
    RecordInputStream in = new RecordInputStream(new ByteArrayInputStream(bytes));
    in.nextRecord();
    SSTRecord sst = new SSTRecord(in);
    int size = sst.getRecordSize();
    byte[] out = new byte[size];
    for (int i = 0; i < 3; ++i) sst.serialize(0, out);  // JIT warm-up
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] times = new double[repeat];
    double[] cpu = new double[repeat];
    for (int i = 0; i < repeat; ++i) {
      long c0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      out = new byte[size];
      sst.serialize(0, out);
      times[i] = (System.nanoTime() - t0) / 1e9;
      cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
    }
    String digest = hex(MessageDigest.getInstance("SHA-256").digest(out));
    StringBuilder line = new StringBuilder();
    line.append(stats("", times)).append(" ").append(stats("cpu_", cpu)).append(" sst_bytes=").append(size).append(" sha256=").append(digest);

    if (workbookRepeat > 0) {
      int count = sst.getNumUniqueStrings();
      long b0 = System.nanoTime();
      HSSFWorkbook wb = new HSSFWorkbook();
      List<HSSFSheet> sheets = new ArrayList<>();
      int perSheet = ROWS * 256;
      for (int s = 0; s * perSheet < Math.max(count, 1); ++s) sheets.add(wb.createSheet("Sheet" + (s + 1)));
      for (int i = 0; i < count; ++i) {
        HSSFSheet sheet = sheets.get(i / perSheet);
        int k = i % perSheet;
        int row = k % ROWS, col = k / ROWS;
        HSSFRow r = sheet.getRow(row);
        if (r == null) r = sheet.createRow(row);
        r.createCell(col).setCellValue(sst.getString(i).getString());
      }
      double build = (System.nanoTime() - b0) / 1e9;
      double[] wt = new double[workbookRepeat];
      int written = 0;
      for (int i = 0; i < workbookRepeat; ++i) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(1 << 20);
        long t0 = System.nanoTime();
        wb.write(sink);
        wt[i] = (System.nanoTime() - t0) / 1e9;
        written = sink.size();
      }
      line.append(" ").append(stats("workbook_", wt)).append(" workbook_bytes=").append(written)
          .append(" workbook_build_s=").append(build);
    }
    System.out.println(line);
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

  static void cells(String path) throws Exception {
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
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 4 && args[0].equals("bench")) {
      bench(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
    } else if (args.length == 2 && args[0].equals("cells")) {
      cells(args[1]);
    } else {
      System.err.println("usage: PoiSst bench SST_FILE REPEAT WORKBOOK_REPEAT | PoiSst cells XLS");
      System.exit(64);
    }
  }
}
