//===--- LeadingIncludesTest.cpp - The headers a file starts with ---------===//

#include "LeadingIncludes.h"
#include "TestFiles.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

namespace torch_tidy {
namespace {

using test::TempDir;
using Includes = std::vector<std::string>;

std::optional<std::string> readDisk(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

Includes leading(const TempDir &Dir, const std::string &Main,
                 std::vector<std::string> QuotedDirs = {}) {
  return leadingIncludes(Dir.file(Main), QuotedDirs, readDisk);
}

TEST(LeadingIncludes, IncludesAfterCommentsUntilTheFirstCode) {
  TempDir Dir;
  Dir.write("a.cpp", "// licence\n/* more */\n\n#include <torch/torch.h>\n"
                     "#include <vector> // why\n#include <map> /* c */\n"
                     "int x;\n#include <string>\n");
  EXPECT_EQ(leading(Dir, "a.cpp"),
            (Includes{"<torch/torch.h>", "<vector>", "<map>"}));
}

TEST(LeadingIncludes, StopsAtADefineOrAConditionBeforeTheIncludes) {
  TempDir Dir;
  Dir.write("define.cpp", "#define NDEBUG\n#include <torch/torch.h>\n");
  Dir.write("if.cpp", "#include <vector>\n#ifdef X\n#include <torch/torch.h>\n#endif\n");
  Dir.write("macro.cpp", "#define H <vector>\n#include H\n");
  EXPECT_EQ(leading(Dir, "define.cpp"), Includes{});
  EXPECT_EQ(leading(Dir, "if.cpp"), Includes{"<vector>"});
  EXPECT_EQ(leading(Dir, "macro.cpp"), Includes{});
}

TEST(LeadingIncludes, LooksThroughTheProjectsOwnHeaders) {
  TempDir Dir;
  Dir.write("model.h", "// the model\n#pragma once\n\n#include <torch/torch.h>\n"
                       "#include <vector>\n\nstruct Net {};\n");
  Dir.write("train.h", "#ifndef TRAIN_H\n#define TRAIN_H\n#include \"model.h\"\n"
                       "#include <string>\n#endif // TRAIN_H\n");
  Dir.write("train.cpp", "#include \"train.h\"\n#include <map>\nint main() {}\n");
  Dir.write("model.cpp", "#include \"model.h\"\n#include <map>\n");
  // train.h is only includes: what follows it counts; model.h has code after
  // its includes: the list stops there.
  EXPECT_EQ(leading(Dir, "train.cpp"),
            (Includes{"<torch/torch.h>", "<vector>"}));
  EXPECT_EQ(leading(Dir, "model.cpp"),
            (Includes{"<torch/torch.h>", "<vector>"}));
  Dir.write("only.cpp", "#include \"train.h\"\n#include <map>\n");
  Dir.write("train.h", "#pragma once\n#include <string>\n");
  EXPECT_EQ(leading(Dir, "only.cpp"), (Includes{"<string>", "<map>"}));
}

TEST(LeadingIncludes, AHeaderWithoutAGuardCannotBeIncludedAgain) {
  TempDir Dir;
  Dir.write("guarded.h", "#pragma once\n#include <vector>\n");
  Dir.write("plain.h", "#include <vector>\n");
  Dir.write("a.cpp", "#include \"guarded.h\"\n#include \"guarded.h\"\n#include <map>\n");
  Dir.write("b.cpp", "#include \"plain.h\"\n#include \"plain.h\"\n#include <map>\n");
  EXPECT_EQ(leading(Dir, "a.cpp"), (Includes{"<vector>", "<map>"}));
  EXPECT_EQ(leading(Dir, "b.cpp"), Includes{"<vector>"});
}

TEST(LeadingIncludes, AQuotedHeaderOfTheIncludePathIsLookedThrough) {
  TempDir Dir;
  Dir.write("include/lib/util.h", "#pragma once\n#include <torch/torch.h>\n");
  Dir.write("src/a.cpp", "#include \"lib/util.h\"\n#include <vector>\n");
  EXPECT_EQ(leading(Dir, "src/a.cpp", {Dir.file("include")}),
            (Includes{"<torch/torch.h>", "<vector>"}));
  // Found nowhere the quoted search looks first: kept as written.
  EXPECT_EQ(leading(Dir, "src/a.cpp"),
            (Includes{"\"lib/util.h\"", "<vector>"}));
}

TEST(LeadingIncludes, QuotedDirsAreIquoteThenI) {
  EXPECT_EQ(quotedIncludeDirs({"clang++", "-I", "inc", "-Ilib", "-iquote", "/q",
                               "-isystem", "/s", "-iquote/r", "-I"},
                              "/work"),
            (Includes{"/q", "/r", "/work/inc", "/work/lib"}));
}

TEST(LeadingIncludes, AnIfndefThatIsNoGuardStops) {
  TempDir Dir;
  Dir.write("config.h", "#ifndef USE_CUDA\n#include <vector>\n#endif\n");
  Dir.write("a.cpp", "#include <map>\n#include \"config.h\"\n#include <set>\n");
  EXPECT_EQ(leading(Dir, "a.cpp"), Includes{"<map>"});
}

TEST(LeadingIncludes, MissingOrOddFilesHaveNone) {
  TempDir Dir;
  EXPECT_EQ(leading(Dir, "missing.cpp"), Includes{});
  Dir.write("odd.cpp", "#include\n#include <\n#include \"x\" int\n");
  EXPECT_EQ(leading(Dir, "odd.cpp"), Includes{});
  Dir.write("cont.cpp", "#include <vector> \\\n  trailing\n");
  EXPECT_EQ(leading(Dir, "cont.cpp"), Includes{});
  Dir.write("bom.cpp", "\xEF\xBB\xBF#include <vector>\r\n#include <map>\r\nint x;\r\n");
  EXPECT_EQ(leading(Dir, "bom.cpp"), (Includes{"<vector>", "<map>"}));
}

} // namespace
} // namespace torch_tidy
