#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/xlsx/row_reader.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

class TempFile {
 public:
  explicit TempFile(const std::string& bytes) {
    path_ = (std::filesystem::temp_directory_path() /
             ("docconform_rows_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".xlsx"))
                .string();
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

// Every cell of a sheet as "row col text-or-number" lines, from the full loader.
std::string cells_loaded(const Workbook& wb, std::size_t sheet) {
  std::string out;
  for (const Segment& seg : wb.sheets[sheet].segments) {
    for (const Row& row : seg.rows) {
      for (std::uint32_t i = 0; i < row.cell_count; ++i) {
        const Cell& c = seg.cells[row.first_cell + i];
        out += std::to_string(row.number) + " " + std::to_string(c.column) + " ";
        if (c.type == CellType::number) append_number(out, c.number());
        else if (c.type == CellType::shared_string) append_quoted(out, wb.shared_strings.at(c.payload));
        else if (c.type == CellType::string) append_quoted(out, seg.cell_text(c));
        out += "\n";
      }
    }
  }
  return out;
}

std::string cells_streamed(const std::string& path, std::size_t sheet, std::size_t piece, std::size_t* peak = nullptr) {
  RowReaderOptions o;
  o.piece_bytes = piece;
  RowReader reader(path, sheet, o);
  std::string out;
  RowView row;
  while (reader.next(row)) {
    for (std::size_t i = 0; i < row.cell_count; ++i) {
      const Cell& c = row.cells[i];
      out += std::to_string(row.number) + " " + std::to_string(c.column) + " ";
      if (c.type == CellType::number) append_number(out, c.number());
      else if (c.type == CellType::shared_string || c.type == CellType::string) append_quoted(out, row.text(c));
      out += "\n";
    }
  }
  if (peak) *peak = reader.peak_buffer_bytes();
  return out;
}

TEST(XlsxRowReader, VisitsTheSameRowsAsTheFullLoad) {
  for (const bool implicit : {false, true}) {
    GenOptions g;
    g.sheets = 2;
    g.rows = 300;
    g.columns = 4;
    g.implicit_refs = implicit;
    g.inline_strings = implicit;
    const TempFile file(generate_workbook(g));
    const Workbook wb = load_workbook_file(file.path());
    for (std::size_t sheet = 0; sheet < 2; ++sheet) {
      for (std::size_t piece : {64, 1000, 1 << 20}) {
        EXPECT_EQ(cells_streamed(file.path(), sheet, piece), cells_loaded(wb, sheet)) << piece;
      }
    }
  }
}

TEST(XlsxRowReader, MemoryIsBoundedByAPieceAndARowNotTheSheet) {
  GenOptions g;
  g.rows = 20000;
  g.columns = 4;
  g.extras = false;
  const TempFile file(generate_workbook(g));
  std::size_t peak = 0;
  const std::string rows = cells_streamed(file.path(), 0, 16 << 10, &peak);
  EXPECT_FALSE(rows.empty());
  EXPECT_LT(peak, 2u * (16 << 10));  // the sheet part is about a megabyte
}

TEST(XlsxRowReader, ErrorsNameThePart) {
  const TempFile file(workbook_with_sheet(sheet("<row r=\"1\"><c r=\"A1\"><v>x</v></c></row>")));
  RowReader reader(file.path(), 0);
  RowView row;
  try {
    reader.next(row);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().part, "xl/worksheets/sheet1.xml");
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
