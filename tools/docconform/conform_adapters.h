// The implementations the conformance runner knows, read from conformance/adapters/ADAPTERS.tsv.
#pragma once

#include <string>
#include <vector>

namespace docconform::cli {

struct Adapter {
  std::string name;                  // "reference" is the in-process reference implementation
  std::vector<std::string> formats;  // formats it reads; "*" = every registered format
  std::string kind;                  // reference | independent | third-party
  bool gated = false;                // a run fails when a gated implementation misses its expectations
  std::string version_command;       // optional 7th column: prints the implementation's version on its first line
  std::string engine;                // optional 8th column: the parser underneath (bindings of one engine share it); default the name
  std::string version;               // as it reports it (adapter_version), set by the runner; "" when unknown
  std::vector<std::string> requires_;  // programs or files that must exist for it to run
  std::string command;               // with {input}, {format}, {root}, {docconform}, {cli-dump} placeholders
                                     // ({dir}, the manifest's directory, is replaced when it is read)

  bool in_process() const { return command == "in-process"; }
  bool reads(const std::string& format) const;
};

std::vector<Adapter> read_adapters(const std::string& manifest_path);

// Why an adapter cannot run here ("" when it can): the first missing requirement.
std::string missing_requirement(const Adapter& adapter, const std::string& root);

// The argv of an adapter run on one case.
std::vector<std::string> adapter_argv(const Adapter& adapter, const std::string& format, const std::string& input,
                                      const std::string& root, const std::string& docconform_binary);

// The implementation's version as its version command prints it (the reference's own for the
// in-process one); "" when it has none or the command fails. Run once per run, under 10 s.
std::string adapter_version(const Adapter& adapter, const std::string& root, const std::string& docconform_binary);

}  // namespace docconform::cli
