#!/usr/bin/perl
# xlsx model core: Perl's Spreadsheet::ParseXLSX (libspreadsheet-parsexlsx-perl) reads the package;
# its workbook (Spreadsheet::ParseExcel's model) is printed as the plain JSON model of
# xlsx_dump.cjs, which xlsx_parsexlsx.cjs writes as the dump. Numbers go out as 17-digit strings
# (JSON::PP would round them to 15), read back exactly by JavaScript's Number.
# What ParseXLSX keeps: sheet names, hidden (only "hidden": a veryHidden sheet reads as visible),
# cell values with a type of Numeric, Text or Date (booleans are the text TRUE/FALSE and errors
# their text, as ParseXLSX documents), a formula's text (not its kind), merged areas, date1904.
# It models no comments, tables or charts: a package with such parts exits 2.
# Usage: xlsx_parsexlsx.pl FILE -> the JSON model, exit 0; exit 1 "error: format" when ParseXLSX
# dies reading the file; exit 2 unsupported.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Archive::Zip qw(:ERROR_CODES);
use JSON::PP;
use Spreadsheet::ParseXLSX;
use Canonical qw(reject run_main);

sub cell_value {
    my ($cell) = @_;
    my $type = $cell->type();
    return { t => 'blank' } unless defined $cell->unformatted();    # e.g. a shared string index past the table
    return { t => 'n', v => sprintf('%.17g', $cell->unformatted()) } if $type eq 'Numeric';
    return { t => 'd', v => $cell->unformatted() } if $type eq 'Date' && $cell->unformatted() !~ /^[-+0-9.eE]+\z/;
    return { t => 'n', v => sprintf('%.17g', $cell->unformatted()) } if $type eq 'Date';
    return { t => 's', v => $cell->unformatted() };
}

sub column_letters {
    my ($col) = @_;    # 1-based
    my $letters = '';
    for (my $c = $col; $c > 0; $c = int(($c - 1) / 26)) { $letters = chr(65 + ($c - 1) % 26) . $letters }
    return $letters;
}

sub read_sheet {
    my ($ws) = @_;
    my $sheet = { name => $ws->get_name(), state => ($ws->is_sheet_hidden() ? 'hidden' : 'visible'),
                  kind => 'worksheet', cells => [], comments => [], tables => [], charts => 0 };
    my ($r0, $r1) = $ws->row_range();
    my ($c0, $c1) = $ws->col_range();
    for my $r ($r0 .. $r1) {
        for my $c ($c0 .. $c1) {
            my $cell = $ws->get_cell($r, $c) or next;
            my $formula = defined $cell->{Formula} ? { kind => 'normal', text => $cell->{Formula} } : undef;
            push @{ $sheet->{cells} }, { row => $r + 1, col => $c + 1, value => cell_value($cell), formula => $formula };
        }
    }
    $sheet->{merges} = [ map { column_letters($_->[1] + 1) . ($_->[0] + 1) . ':' . column_letters($_->[3] + 1) . ($_->[2] + 1) }
                         @{ $ws->get_merged_areas() // [] } ];
    return $sheet;
}

sub main {
    my ($path) = @_;
    my $workbook = eval { Spreadsheet::ParseXLSX->new->parse($path) };
    reject('format', "Spreadsheet::ParseXLSX: $@") unless $workbook;
    my $zip = Archive::Zip->new();
    $zip->read($path) == AZ_OK or die "$path: Archive::Zip read failed after ParseXLSX read it\n";
    if (grep { m{(^|/)(charts|chartsheets|tables|dialogsheets|macrosheets)/|(^|/)comments[^/]*\.xml\z}i } $zip->memberNames()) {
        print STDERR "unsupported: Spreadsheet::ParseXLSX reads no comments, tables, charts, chartsheets, dialog or macro sheets\n";
        return 2;
    }
    my $model = { date1904 => ($workbook->{Flg1904} ? JSON::PP::true : JSON::PP::false),
                  sheets => [ map { read_sheet($_) } $workbook->worksheets() ] };
    print JSON::PP->new->ascii->canonical->encode($model), "\n";
    return 0;
}

run_main(\&main, @ARGV);
