package Canonical;
# The primitives of the canonical dumps (conformance/SPEC.md, section 1) for the Perl adapters,
# as canonical.py has them for the Python ones: the quoted string form and the rejection exit.
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(quote_units utf16_units read_file reject run_main);

my @UNIT_TEXT = map {
    $_ == 0x22 || $_ == 0x5C ? "\\" . chr($_) : ($_ >= 0x20 && $_ < 0x7F) ? chr($_) : sprintf("\\u%04X", $_)
} 0 .. 255;

# A string of UTF-16 code units (integers 0..0xFFFF) in the quoted form.
sub quote_units {
    return '"' . join('', map { $_ < 256 ? $UNIT_TEXT[$_] : sprintf("\\u%04X", $_) } @_) . '"';
}

# The UTF-16 code units of a Perl character string (code points above U+FFFF as surrogate pairs).
sub utf16_units {
    my ($text) = @_;
    return map {
        my $c = ord($_);
        $c > 0xFFFF ? (0xD800 + (($c - 0x10000) >> 10), 0xDC00 + (($c - 0x10000) & 0x3FF)) : $c
    } split(//, $text);
}

# Exits as the adapter protocol says for a rejected input: status 1, "error: <class>" last on stderr.
sub reject {
    my ($class, $why) = @_;
    print STDERR "$why\n" if defined $why;
    print STDERR "error: $class\n";
    exit 1;
}

# The bytes of the file at PATH.
sub read_file {
    my ($path) = @_;
    open(my $in, '<:raw', $path) or die "$path: $!\n";
    my $bytes = do { local $/; <$in> } // '';
    close($in);
    return $bytes;
}

# Runs MAIN(ARGS) and exits with its status. A die of the adapter itself is an adapter failure
# (exit 3), never one of the protocol's statuses, which Perl's own die status (errno) could be.
sub run_main {
    my ($main, @args) = @_;
    my $status = eval { $main->(@args) };
    if (!defined $status) {
        print STDERR "adapter failure: $@";
        exit 3;
    }
    exit $status;
}

1;
