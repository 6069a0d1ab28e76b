#!/usr/bin/perl
# utf8 adapter: Perl's Encode module decoding strict UTF-8 ("UTF-8", not Perl's lax "utf8":
# surrogates, code points above U+10FFFF and overlong forms are errors), croaking on the first
# ill-formed sequence. A strict decoder, so it confirms y_ cases and rejects every i_ case.
# Usage: utf8_perl.pl FILE -> the canonical dump, exit 0; exit 1 "error: format".
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Encode ();
use Canonical qw(quote_units read_file utf16_units reject run_main);

# The decoded text of BYTES, or undef when Encode refuses them.
sub decode_strict {
    my ($bytes) = @_;
    my $text = eval { Encode::decode('UTF-8', $bytes, Encode::FB_CROAK) };
    return $text;
}

sub main {
    my ($path) = @_;
    my $bytes = read_file($path);
    my $text = decode_strict($bytes);
    reject('format', "Encode: $@") unless defined $text;
    my @units = utf16_units($text);
    print "docconform-dump utf8 1\nunits " . scalar(@units) . "\ntext " . quote_units(@units) . "\n";
    return 0;
}

run_main(\&main, @ARGV);
