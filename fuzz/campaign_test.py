#!/usr/bin/python3
"""Checks tools/fuzz-campaign's parsing: crash signatures (de-duplication), engine status lines,
.options files and durations. Run by ctest as fuzz.campaign_tool."""
import argparse
import importlib.machinery
import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
loader = importlib.machinery.SourceFileLoader("fuzz_campaign", str(ROOT / "tools" / "fuzz-campaign"))
spec = importlib.util.spec_from_loader("fuzz_campaign", loader)
campaign = importlib.util.module_from_spec(spec)
loader.exec_module(campaign)

HEAP_OVERFLOW = """==28241==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000093 at pc 0x55c2 bp 0x7fff sp 0x7fff
READ of size 1 at 0x602000000093 thread T0
    #0 0x{a}220 in (anonymous namespace)::peek(unsigned char const*, unsigned long) /src/reference/xlsx/scan.cc:9:11
    #1 0x{a}220 in docconform::xlsx::Scanner::next_token() /src/reference/xlsx/scan.cc:{line}:5
    #2 0x{a}2b3 in LLVMFuzzerTestOneInput /src/fuzz/xlsx_sheet_xml_fuzzer.cc:16:79
    #3 0x{a}2b3 in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) (/b/fuzz+0x432b3)
    #4 0x{a}249 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16

0x602000000093 is located 0 bytes to the right of 3-byte region [0x602000000090,0x602000000093)
allocated by thread T0 here:
    #0 0x{a}9d in operator new[](unsigned long) (/b/fuzz+0x11a9d)
    #1 0x{a}1a0 in (anonymous namespace)::copy_input(unsigned char const*, unsigned long) /src/fuzz/x.cc:7:16
SUMMARY: AddressSanitizer: heap-buffer-overflow /src/reference/xlsx/scan.cc:9:11
"""

PROPERTY = """fuzz property violated: fast == slow_decode(data, size)
input (3 bytes): 42 55 47
==1== ERROR: libFuzzer: deadly signal
    #0 0x{a}ca1 in __sanitizer_print_stack_trace (/b/fuzz+0xe9ca1)
    #1 0x{a}5f8 in fuzzer::PrintStackTrace() (/b/fuzz+0x5c5f8)
    #2 0x7f63ac65a04f  (/lib/x86_64-linux-gnu/libc.so.6+0x3c04f)
    #3 0x{a}eeb in __pthread_kill_implementation nptl/./nptl/pthread_kill.c:43:17
    #4 0x{a}fb1 in raise signal/../sysdeps/posix/raise.c:26:13
    #5 0x{a}471 in abort stdlib/./stdlib/abort.c:79:7
    #6 0x{a}49e in docconform::fuzz::fail(char const*, unsigned char const*, unsigned long) /src/fuzz/fuzz_check.h:16:3
    #7 0x{a}2a5 in LLVMFuzzerTestOneInput /src/fuzz/utf8_passthrough_fuzzer.cc:{line}:72
"""

UBSAN = """/src/reference/sst/reader.cc:88:30: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
    #0 0x{a}111 in docconform::sst::read_count(std::span<unsigned char const>) /src/reference/sst/reader.cc:88:30
    #1 0x{a}222 in LLVMFuzzerTestOneInput /src/fuzz/sst_reader_fuzzer.cc:20:3
"""


class Signatures(unittest.TestCase):
    def test_addresses_do_not_matter(self):
        one = campaign.crash_signature(HEAP_OVERFLOW.format(a="55dc", line=40))
        two = campaign.crash_signature(HEAP_OVERFLOW.format(a="7a11", line=40))
        self.assertEqual(one, two)

    def test_crash_site_and_kind(self):
        signature, kind, names = campaign.crash_signature(HEAP_OVERFLOW.format(a="55dc", line=40))
        self.assertEqual(kind, "heap-buffer-overflow")
        self.assertEqual(signature, "heap-buffer-overflow|peek@scan.cc:9|docconform::xlsx::Scanner::next_token@scan.cc:40"
                                    "|LLVMFuzzerTestOneInput@xlsx_sheet_xml_fuzzer.cc:16")
        self.assertEqual(names, ["peek", "next_token"])  # the allocation stack is not the crash site

    def test_different_call_site_is_a_different_bug(self):
        self.assertNotEqual(campaign.crash_signature(HEAP_OVERFLOW.format(a="1", line=40))[0],
                            campaign.crash_signature(HEAP_OVERFLOW.format(a="1", line=41))[0])

    def test_property_violation_skips_the_runtime(self):
        signature, kind, names = campaign.crash_signature(PROPERTY.format(a="55", line=15))
        self.assertEqual(kind, "property-fast-slow-decode-data-size")
        self.assertEqual(signature, "property-fast-slow-decode-data-size|LLVMFuzzerTestOneInput@utf8_passthrough_fuzzer.cc:15")
        self.assertEqual(names, [])

    def test_ubsan(self):
        _, kind, names = campaign.crash_signature(UBSAN.format(a="9"))
        self.assertEqual(kind, "ubsan-signed-integer-overflow")
        self.assertEqual(names, ["read_count"])

    def test_timeout_and_unknown(self):
        self.assertEqual(campaign.crash_kind("==9== ERROR: libFuzzer: timeout after 10 seconds"), "timeout")
        self.assertEqual(campaign.crash_kind("Segmentation fault"), "crash")


class EngineStatus(unittest.TestCase):
    def write(self, text):
        handle = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
        handle.write(text)
        handle.close()
        self.addCleanup(Path(handle.name).unlink)
        return handle.name

    def test_fork_mode_takes_the_last_line(self):
        log = self.write("#36423: cov: 365 ft: 365 corp: 24 exec/s 18211 oom/timeout/crash: 0/0/0 time: 2s job: 1\n"
                         "  NEW_FUNC: 0x1 in f() /x.cc:1\n"
                         "#435389: cov: 528 ft: 678 corp: 142 exec/s 13738 oom/timeout/crash: 1/2/3 time: 28s job: 6\n")
        self.assertEqual(campaign.libfuzzer_stats(log),
                         {"execs": 435389, "cov": 528, "features": 678, "corpus": 142, "execs_per_sec": 13738,
                          "findings": 6})

    def test_single_process_lines(self):
        log = self.write("#1393661\tDONE   cov: 170 ft: 728 corp: 203/27Kb lim: 4096 exec/s: 22846 rss: 207Mb\n")
        stats = campaign.libfuzzer_stats(log)
        self.assertEqual((stats["execs"], stats["cov"], stats["corpus"], stats["findings"]), (1393661, 170, 203, 0))

    def test_afl_stats_sum_over_instances(self):
        with tempfile.TemporaryDirectory() as sync:
            for name, execs, edges, crashes in (("main", 100, 50, 1), ("s1", 40, 60, 0)):
                Path(sync, name).mkdir()
                Path(sync, name, "fuzzer_stats").write_text(
                    f"execs_done        : {execs}\nexecs_per_sec     : inf\nedges_found       : {edges}\n"
                    f"total_edges       : 300\ncorpus_count      : 7\nsaved_crashes     : {crashes}\nsaved_hangs       : 1\n")
            stats = campaign.afl_stats(sync)
        self.assertEqual((stats["execs"], stats["execs_per_sec"], stats["edges"], stats["findings"]), (140, 0, 60, 3))


class Inputs(unittest.TestCase):
    def test_durations(self):
        self.assertEqual([campaign.parse_duration(t) for t in ("90", "90s", "10m", "2h", "1.5m")],
                         [90, 90, 600, 7200, 90])
        with self.assertRaises(argparse.ArgumentTypeError):
            campaign.parse_duration("ten minutes")

    def test_every_target_has_its_files(self):
        targets = campaign.all_targets()
        self.assertIn("utf8_passthrough", targets)
        for target in targets:
            self.assertIsNotNone(campaign.dictionary(target), f"fuzz/{target}.dict")
            self.assertTrue(campaign.seed_files(target), f"corpus/{target}/ has no seeds")
            self.assertTrue((ROOT / "corpus" / target / "regressions").is_dir(), f"corpus/{target}/regressions/")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], *sys.argv[1:]])
