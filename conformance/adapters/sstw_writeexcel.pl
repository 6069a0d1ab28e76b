#!/usr/bin/perl
# sstw writer core: Spreadsheet::WriteExcel (libspreadsheet-writeexcel-perl) writes cells into a
# .xls. Run by sstw_writeexcel.py, which reads the strings file (sst_writing.py) and judges the
# workbook: sstw_writeexcel.pl CELLS OUT.xls, CELLS holding each cell's UTF-16LE bytes after a
# 32-bit little-endian byte count. Cell i goes to row i % 65536, column i / 65536 (ROWS of
# sst_writing.py). Exit 1 with "error: range" when write_utf16le_string refuses a cell: it
# returns -3 for a string over 32,767 characters, which it truncates.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Spreadsheet::WriteExcel;
use Canonical qw(reject run_main);

use constant ROWS => 65536;

sub write_cells {
    my ($cells_path, $out_path) = @_;
    open(my $in, '<:raw', $cells_path) or die "$cells_path: $!";
    my $book = Spreadsheet::WriteExcel->new($out_path) or die "$out_path: $!";
    my $sheet = $book->add_worksheet('Sheet1');
    my $i = 0;
    while (read($in, my $head, 4) == 4) {
        my $size = unpack('V', $head);
        read($in, my $bytes, $size) == $size or die "$cells_path: truncated";
        my $status = $sheet->write_utf16le_string($i % ROWS, int($i / ROWS), $bytes);
        reject('range', "Spreadsheet::WriteExcel: write_utf16le_string returned $status for cell $i") if $status != 0;
        $i++;
    }
    $book->close() or die "$out_path: close failed";
    return 0;
}

run_main(\&write_cells, @ARGV);
