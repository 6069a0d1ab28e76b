#!/usr/bin/perl
# sst adapter (conformance/SPEC.md, format sst) built on Perl's Spreadsheet::ParseExcel
# (libspreadsheet-parseexcel-perl), its own BIFF parser. ParseExcel keeps a workbook's shared
# string table as $workbook->{PkgStr}, each entry's Text the string's bytes as it read them
# (UTF-16BE when its Unicode flag is set, else one byte a character); SST and CONTINUE records are
# joined by ParseExcel itself (_subStrWk). ParseExcel opens CFB containers only (OLE::Storage_Lite),
# so a bare BIFF stream is put unchanged into a CFB container's Workbook stream (by
# OLE::Storage_Lite, ParseExcel's own CFB library), and a .sst record file is first framed as a BIFF8 globals substream (BOF, the file's records unchanged, EOF), as
# sst_sheetjs.cjs does for SheetJS.
# Usage: sst_parseexcel.pl FILE -> the dump, exit 0; exit 1 "error: format"; exit 2 encrypted.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use OLE::Storage_Lite;
use Spreadsheet::ParseExcel;
use Canonical qw(quote_units read_file reject run_main);

sub record {
    my ($type, $payload) = @_;
    return pack('vv', $type, length $payload) . $payload;
}

# BOF: BIFF8 (0x0600), workbook globals (0x0005), build/year fields as Excel 97 writes them.
sub framed {
    my ($records) = @_;
    my $bof = pack('C*', 0x00, 0x06, 0x05, 0x00, 0xaf, 0x18, 0xcd, 0x07, 0xc1, 0x00, 0x01, 0x00, 0x06, 0x03, 0x00, 0x00);
    return record(0x0809, $bof) . $records . record(0x000a, '');
}

# A CFB container holding STREAM as its Workbook stream, written by OLE::Storage_Lite.
sub container {
    my ($stream) = @_;
    my $workbook = OLE::Storage_Lite::PPS::File->new(OLE::Storage_Lite::Asc2Ucs('Workbook'), $stream);
    my $root = OLE::Storage_Lite::PPS::Root->new(undef, undef, [$workbook]);
    my $bytes = '';
    $root->save(\$bytes) or die "OLE::Storage_Lite: save failed\n";
    return $bytes;
}

# The shared strings ParseExcel read from the file's bytes, as lists of UTF-16 code units.
# A .sst file is a record file (conformance/SPEC.md, format sst, "Case files"); any other file
# is a workbook, handed to ParseExcel as it is unless it is a bare BIFF stream.
sub sst_strings {
    my ($path, $data) = @_;
    my $bare_biff = length($data) >= 2 && ord(substr($data, 0, 1)) == 0x09 && (ord(substr($data, 1, 1)) & 0xF1) == 0;
    if ($path =~ /\.sst\z/) {
        $data = container(framed($data));
    } elsif ($bare_biff) {
        $data = container($data);
    }
    my $parser = Spreadsheet::ParseExcel->new();
    # OLE::Storage_Lite dies on a directory it cannot follow ("Error PPS:..."): a rejection.
    my $workbook = eval { $parser->parse(\$data) };
    if (!defined $workbook && $@) {
        (my $why = $@) =~ s/[^\x20-\x7e\n]/?/g;
        reject('format', "Spreadsheet::ParseExcel died: $why");
    }
    if (!defined $workbook) {
        my $error = $parser->error();
        if ($error =~ /encrypted/i) {
            print STDERR "Spreadsheet::ParseExcel: $error\n";
            exit 2;
        }
        reject('format', "Spreadsheet::ParseExcel: $error");
    }
    return map { [$_->{Unicode} ? unpack('n*', $_->{Text}) : unpack('C*', $_->{Text})] } @{ $workbook->{PkgStr} // [] };
}

sub main {
    my ($path) = @_;
    my $data = read_file($path);
    my @strings = sst_strings($path, $data);
    print join('', "docconform-dump sst 1\nstrings " . scalar(@strings) . "\n", map { quote_units(@$_) . "\n" } @strings);
    return 0;
}

run_main(\&main, @ARGV);
