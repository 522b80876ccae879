//===--- HostileOutputTest.cpp - JSON and SARIF of hostile findings -------===//
//
// Regression tests for what json_output_fuzzer and sarif_output_fuzzer found
// (test/fuzz/): strings that are not UTF-8 and findings without a file.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "TestFiles.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace torch_tidy {
namespace {

using nlohmann::json;
using test::spanAt;
using test::TempDir;

std::string toJson(const std::vector<Finding> &Fs) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJson(OS, Fs);
  return Out;
}

std::string toSarif(const std::vector<Finding> &Fs, const std::string &Root) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeSarif(OS, Fs, Root);
  return Out;
}

/// A finding in a Latin-1 file that quotes Latin-1 source: neither the path
/// nor the message is UTF-8.
Finding latin1Finding(const TempDir &Dir) {
  std::string File = Dir.write("caf\xe9.cpp", "auto d = \"cuda\xe9\";\n");
  Finding F;
  F.Check = "device-invalid-string";
  F.Message = "LibTorch rejects the device string 'cuda\xe9'";
  F.Where = spanAt(File, 9);
  F.Notes.push_back({spanAt(File, 0), "note \xff", {}});
  F.Fixes.push_back({spanAt(File, 9, 7), "\"cuda\xe9\""});
  plan::Verdict V;
  V.Outcome = "confirmed";
  V.Device = "cuda:0";
  V.Message = "bad \xc3";
  F.Confirmation = V;
  return F;
}

TEST(HostileOutput, JsonReplacesBytesThatAreNotUtf8) {
  TempDir Dir;
  std::string Text;
  ASSERT_NO_THROW(Text = toJson({latin1Finding(Dir)}));
  json Out = json::parse(Text);
  EXPECT_EQ(Out[0]["message"],
            "LibTorch rejects the device string 'cuda\xEF\xBF\xBD'");
  EXPECT_EQ(Out[0]["file"], Dir.path() + "/caf\xEF\xBF\xBD.cpp");
  EXPECT_EQ(Out[0]["notes"][0]["message"], "note \xEF\xBF\xBD");
  EXPECT_EQ(Out[0]["fixes"][0]["replacement"], "\"cuda\xEF\xBF\xBD\"");
  EXPECT_EQ(Out[0]["verdict"]["message"], "bad \xEF\xBF\xBD");
}

TEST(HostileOutput, SarifReplacesBytesThatAreNotUtf8) {
  TempDir Dir;
  std::string Text;
  ASSERT_NO_THROW(Text = toSarif({latin1Finding(Dir)}, Dir.path()));
  json Result = json::parse(Text)["runs"][0]["results"][0];
  EXPECT_EQ(Result["message"]["text"],
            "LibTorch rejects the device string 'cuda\xEF\xBF\xBD'");
  // A path is percent-encoded byte by byte: nothing is lost.
  EXPECT_EQ(Result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "caf%E9.cpp");
  EXPECT_EQ(Result["relatedLocations"][0]["message"]["text"], "note \xEF\xBF\xBD");
  EXPECT_EQ(Result["properties"]["message"], "bad \xEF\xBF\xBD");
}

TEST(HostileOutput, SarifFindingWithoutAFileHasNoLocation) {
  // A compiler error about the command line ("unknown argument") has no
  // file: SARIF regions start at line 1, and "file://" names no file.
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.Message = "unknown argument: '-fbogus'";
  F.IsError = true;
  json Result = json::parse(toSarif({F}, "/src"))["runs"][0]["results"][0];
  EXPECT_EQ(Result["locations"], json::array());
  EXPECT_EQ(Result["message"]["text"], "unknown argument: '-fbogus'");
}

TEST(HostileOutput, SarifNoteWithoutAFileKeepsItsMessage) {
  TempDir Dir;
  Finding F = latin1Finding(Dir);
  F.Notes = {{Span{}, "in a file of the command line", {}}};
  json Related = json::parse(toSarif({F}, Dir.path()))["runs"][0]["results"][0]
                     ["relatedLocations"][0];
  EXPECT_FALSE(Related.contains("physicalLocation")) << Related.dump();
  EXPECT_EQ(Related["message"]["text"], "in a file of the command line");
}

} // namespace
} // namespace torch_tidy
