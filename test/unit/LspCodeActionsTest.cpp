//===--- LspCodeActionsTest.cpp - Findings as diagnostics and quick fixes -===//

#include "CodeActions.h"
#include "Diagnostics.h"
#include <gtest/gtest.h>

namespace torch_tidy::lsp {
namespace {

using nlohmann::json;

const std::string File = "/project/train.cpp";
const std::string Header = "/project/util.h";
const std::string Source = "#include \"util.h\"\n"
                           "void f(torch::Tensor x, torch::Device d) {\n"
                           "  x.to(d);\n"
                           "  // NOLINTNEXTLINE(device-hardcoded)\n"
                           "  x.cuda();\n"
                           "}\n";

unsigned offsetOf(const std::string &Needle) { return Source.find(Needle); }

Span at(const std::string &In, unsigned Offset, unsigned Length = 0) {
  Span S;
  S.File = In;
  S.Offset = Offset;
  S.Length = Length;
  return S;
}

/// A finding of device-discarded-to on the call that starts with \p Call.
Finding discardedAt(const std::string &Call, const std::string &Method) {
  Finding F;
  F.Check = "device-discarded-to";
  F.Message = "result of '" + Method + "' is discarded";
  F.Where = at(File, offsetOf(Call));
  return F;
}

/// With a highlighted range, a fix-it and a note.
Finding discarded() {
  Finding F = discardedAt("x.to", "to");
  F.Ranges = {at(File, offsetOf("x.to"), 7)};
  F.Fixes = {{at(File, offsetOf("x.to")), "x = "}};
  F.Notes = {{at(File, offsetOf("}")), "'x' is used here", {}}};
  return F;
}

Finding cudaCall() { return discardedAt("x.cuda", "cuda"); }

struct Fixture : ::testing::Test {
  SourceTexts Texts{{{File, Source}, {Header, "#pragma once\nint oops\n"}}};
  ActionTarget Target{File, "file:///project/train.cpp", 7,
                      PositionEncoding::Utf16, /*DocumentChanges=*/true};

  json actions(const std::vector<Finding> &Findings, const json &Params) {
    return codeActions(showFindings(Findings, File, Texts, Target.Encoding),
                       Texts, Target, Params);
  }
  static json onLine(unsigned Line) {
    json P = {{"line", Line}, {"character", 0}};
    return {{"textDocument", {{"uri", "file:///project/train.cpp"}}},
            {"range", {{"start", P}, {"end", P}}},
            {"context", {{"diagnostics", json::array()}}}};
  }
};

TEST_F(Fixture, ADiagnosticHasItsRangeSeverityNotesAndDocs) {
  std::vector<ShownFinding> Shown =
      showFindings({discarded()}, File, Texts, PositionEncoding::Utf16);
  ASSERT_EQ(Shown.size(), 1u);
  const json &D = Shown[0].Diagnostic;
  EXPECT_EQ(D["range"], json({{"start", {{"line", 2}, {"character", 2}}},
                              {"end", {{"line", 2}, {"character", 9}}}}));
  EXPECT_EQ(D["severity"], 1) << "a bug is an error";
  EXPECT_EQ(D["tags"], json::array({1}))
      << "Unnecessary: the call has no effect";
  EXPECT_EQ(D["code"], "device-discarded-to");
  EXPECT_EQ(D["source"], "torch-tidy");
  EXPECT_EQ(D["relatedInformation"][0]["message"], "'x' is used here");
  EXPECT_EQ(D["relatedInformation"][0]["location"]["range"]["start"]["line"], 5);
  EXPECT_NE(D["codeDescription"]["href"].get<std::string>().find(
                "docs/checks/device-discarded-to.md"),
            std::string::npos);
}

TEST_F(Fixture, TheSeverityIsTheRulesAndOnlyIdleCodeIsTagged) {
  auto ruled = [](const char *Check) {
    Finding F = cudaCall();
    F.Check = Check;
    return F;
  };
  Finding Downgraded = cudaCall();
  Downgraded.Downgraded = true;
  std::vector<ShownFinding> Shown = showFindings(
      {ruled("device-load-without-device"), ruled("device-sync-in-loop"),
       Downgraded, ruled("clang-diagnostic-unused-variable")},
      File, Texts, PositionEncoding::Utf16);
  ASSERT_EQ(Shown.size(), 4u);
  EXPECT_EQ(Shown[0].Diagnostic["severity"], 2) << "a hazard is a warning";
  EXPECT_EQ(Shown[1].Diagnostic["severity"], 3) << "performance: information";
  EXPECT_EQ(Shown[2].Diagnostic["severity"], 4) << "not reproduced: a hint";
  EXPECT_EQ(Shown[3].Diagnostic["severity"], 2) << "a compiler warning";
  for (size_t I : {0, 1, 3})
    EXPECT_FALSE(Shown[I].Diagnostic.contains("tags")) << I;
}

TEST_F(Fixture, AnotherFilesErrorIsShownWhereItIsIncluded) {
  Finding Error;
  Error.Check = "clang-diagnostic-error";
  Error.IsError = true;
  Error.Message = "expected ';'";
  Error.Where = at(Header, 21);
  Error.Notes = {{at(File, 9), "included here", {}}};
  Finding Warning = Error;
  Warning.Check = "device-discarded-to";
  Warning.IsError = false;
  std::vector<ShownFinding> Shown =
      showFindings({Error, Warning}, File, Texts, PositionEncoding::Utf16);
  ASSERT_EQ(Shown.size(), 1u) << "another file's warning is its own";
  const json &D = Shown[0].Diagnostic;
  EXPECT_EQ(D["severity"], 1);
  EXPECT_EQ(D["message"], "in included file: expected ';'");
  EXPECT_EQ(D["range"]["start"], json({{"line", 0}, {"character", 9}}));
  EXPECT_EQ(D["relatedInformation"][0]["location"]["uri"],
            "file:///project/util.h");
  EXPECT_EQ(D["relatedInformation"][0]["location"]["range"]["start"],
            json({{"line", 1}, {"character", 8}}));
}

TEST_F(Fixture, AFixItIsThePreferredQuickFix) {
  json Actions = actions({discarded()}, onLine(2));
  ASSERT_EQ(Actions.size(), 2u) << Actions.dump(1);
  const json &Fix = Actions[0];
  EXPECT_EQ(Fix["title"], "device-discarded-to: insert 'x = '");
  EXPECT_EQ(Fix["kind"], "quickfix");
  EXPECT_EQ(Fix["isPreferred"], true);
  EXPECT_EQ(Fix["diagnostics"][0]["code"], "device-discarded-to");
  const json &Change = Fix["edit"]["documentChanges"][0];
  EXPECT_EQ(Change["textDocument"]["version"], 7);
  EXPECT_EQ(Change["edits"][0]["newText"], "x = ");
  EXPECT_EQ(Change["edits"][0]["range"]["start"],
            json({{"line", 2}, {"character", 2}}));
}

TEST_F(Fixture, SuppressionGoesAboveWithTheLinesIndentation) {
  json Actions = actions({discarded()}, onLine(2));
  const json &Suppress = Actions[1];
  EXPECT_EQ(Suppress["title"],
            "suppress with NOLINTNEXTLINE(device-discarded-to)");
  const json &Edit = Suppress["edit"]["documentChanges"][0]["edits"][0];
  EXPECT_EQ(Edit["newText"], "  // NOLINTNEXTLINE(device-discarded-to)\n");
  EXPECT_EQ(Edit["range"]["start"], json({{"line", 2}, {"character", 0}}));
  EXPECT_EQ(Edit["range"]["end"], Edit["range"]["start"]);
}

TEST_F(Fixture, SuppressionJoinsANolintNextLineAlreadyThere) {
  json Actions = actions({cudaCall()}, onLine(4));
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(1);
  const json &Edit = Actions[0]["edit"]["documentChanges"][0]["edits"][0];
  EXPECT_EQ(Edit["newText"], ",device-discarded-to");
  // Just before the ')' of "  // NOLINTNEXTLINE(device-hardcoded)".
  EXPECT_EQ(Edit["range"]["start"], json({{"line", 3}, {"character", 36}}));
}

TEST_F(Fixture, CompilerErrorsAndServerDiagnosticsCannotBeSuppressed) {
  Finding Error = discarded();
  Error.Check = "clang-diagnostic-error";
  Error.IsError = true;
  Error.Fixes.clear();
  Finding Crash = cudaCall();
  Crash.Check = "torch-tidy-crash";
  EXPECT_EQ(actions({Error}, onLine(2)).size(), 0u);
  EXPECT_EQ(actions({Crash}, onLine(4)).size(), 0u);
  Finding AsError = discarded();
  AsError.IsError = AsError.IsWarningAsError = true;
  EXPECT_EQ(actions({AsError}, onLine(2)).size(), 2u)
      << "a warning treated as an error is still a rule's finding";
}

TEST_F(Fixture, TheDiagnosticsNamedInTheContextChooseTheFindings) {
  std::vector<Finding> Both = {discarded(), cudaCall()};
  json Params = onLine(0); // a line with no finding
  json Named = showFindings({cudaCall()}, File, Texts, Target.Encoding)[0]
                   .Diagnostic;
  Params["context"]["diagnostics"] = json::array({Named});
  json Actions = actions(Both, Params);
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(1);
  EXPECT_EQ(Actions[0]["diagnostics"][0]["message"],
            "result of 'cuda' is discarded");
  EXPECT_EQ(actions(Both, onLine(0)).size(), 0u);
}

TEST_F(Fixture, OnlyOtherKindsGetNothing) {
  json Params = onLine(2);
  Params["context"]["only"] = {"refactor"};
  EXPECT_EQ(actions({discarded()}, Params).size(), 0u);
  Params["context"]["only"] = {"quickfix"};
  EXPECT_EQ(actions({discarded()}, Params).size(), 2u);
}

TEST_F(Fixture, ChangesWithoutVersionsForClientsWithoutDocumentChanges) {
  Target.DocumentChanges = false;
  json Actions = actions({discarded()}, onLine(2));
  EXPECT_EQ(Actions[0]["edit"]["changes"]["file:///project/train.cpp"][0]
                    ["newText"],
            "x = ");
}

} // namespace
} // namespace torch_tidy::lsp
