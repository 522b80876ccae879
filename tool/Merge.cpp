//===--- Merge.cpp - One report from the reports of shards ----------------===//

#include "Merge.h"
#include "FixApplier.h"
#include "JsonFields.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>

namespace torch_tidy {

using nlohmann::json;

static llvm::Error mergeError(const Report &R, const llvm::Twine &Problem) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 "cannot merge '%s': %s", R.Name.c_str(),
                                 Problem.str().c_str());
}

/// Drops findings reported twice and sorts the rest by \p Key.
template <typename KeyFn>
static json sortedUnique(std::vector<json> Items, KeyFn Key) {
  std::map<std::string, json> Unique; // dump -> item, in dump order
  for (json &Item : Items)
    Unique.emplace(dumpJson(Item, -1), std::move(Item));
  std::vector<json> Out;
  for (auto &Entry : Unique)
    Out.push_back(std::move(Entry.second));
  std::stable_sort(Out.begin(), Out.end(), [&](const json &A, const json &B) {
    return Key(A) < Key(B);
  });
  return Out;
}

static llvm::Expected<std::string> mergeJson(const std::vector<Report> &Reports,
                                             const std::vector<json> &Parsed) {
  std::vector<json> Items;
  for (size_t I = 0; I < Parsed.size(); ++I) {
    if (!Parsed[I].is_array())
      return mergeError(Reports[I], "not a torch-tidy JSON report like the "
                                    "first");
    for (const json &Item : Parsed[I])
      Items.push_back(Item);
  }
  json Out = sortedUnique(std::move(Items), [](const json &F) {
    return std::make_tuple(F.value("file", ""), F.value("line", 0u),
                           F.value("column", 0u), F.value("check", ""),
                           F.value("message", ""));
  });
  return dumpJson(Out) + "\n";
}

/// The field \p Key of \p Object, or null.
static json field(const json &Object, const char *Key) {
  return Object.is_object() && Object.contains(Key) ? Object[Key] : json();
}

static llvm::Expected<std::string> mergeSarif(const std::vector<Report> &Reports,
                                              const std::vector<json> &Parsed) {
  json Merged, Shared; // the first run, and what every run must share with it
  json Rules = json::array();
  std::map<std::string, unsigned> RuleIndex;
  std::vector<json> Results;
  json Notifications = json::array();
  bool Successful = true;
  for (size_t I = 0; I < Parsed.size(); ++I) {
    const json &Log = Parsed[I];
    if (field(Log, "version") != "2.1.0" || !field(Log, "runs").is_array())
      return mergeError(Reports[I], "not a SARIF 2.1.0 log like the first");
    for (const json &Run : Log["runs"]) {
      json Driver = field(field(Run, "tool"), "driver");
      if (field(Driver, "name") != "torch-tidy")
        return mergeError(Reports[I], "a run of another tool than torch-tidy");
      json Mine = {{"torch-tidy version", field(Driver, "version")},
                   {"originalUriBaseIds", field(Run, "originalUriBaseIds")},
                   {"automationDetails", field(Run, "automationDetails")},
                   {"columnKind", field(Run, "columnKind")}};
      if (Merged.is_null()) {
        Merged = Run;
        Shared = Mine;
      }
      for (const auto &[Key, Value] : Shared.items())
        if (Mine[Key] != Value)
          return mergeError(Reports[I], "its " + Key +
                                            " differs from the first report's");
      const json RunRules = field(Driver, "rules");
      for (const json &Rule : RunRules.is_array() ? RunRules : json::array())
        if (RuleIndex.emplace(field(Rule, "id").dump(), Rules.size()).second)
          Rules.push_back(Rule);
      for (json Result : field(Run, "results").is_array() ? Run["results"]
                                                           : json::array()) {
        auto It = RuleIndex.find(field(Result, "ruleId").dump());
        if (It == RuleIndex.end())
          return mergeError(Reports[I], "a result of rule " +
                                            field(Result, "ruleId").dump() +
                                            " that its rules do not list");
        Result["ruleIndex"] = It->second;
        Results.push_back(std::move(Result));
      }
      for (const json &Invocation : field(Run, "invocations").is_array()
                                        ? Run["invocations"]
                                        : json::array()) {
        Successful &= field(Invocation, "executionSuccessful") != false;
        json Notes = field(Invocation, "toolExecutionNotifications");
        for (const json &Note : Notes.is_array() ? Notes : json::array())
          Notifications.push_back(Note);
      }
    }
  }
  if (Merged.is_null())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot merge: the reports hold no run");
  Merged["tool"]["driver"]["rules"] = Rules;
  Merged["results"] = sortedUnique(std::move(Results), [](const json &R) {
    json Locations = field(R, "locations");
    json Location = Locations.is_array() && !Locations.empty() ? Locations[0]
                                                               : json();
    json Physical = field(Location, "physicalLocation");
    json Region = field(Physical, "region");
    auto Number = [&](const char *Key) {
      return Region.is_object() ? Region.value(Key, 0u) : 0u; // absent: none
    };
    return std::make_tuple(field(Physical, "artifactLocation").dump(),
                           Number("startLine"), Number("startColumn"),
                           field(R, "ruleId").dump(),
                           field(R, "message").dump());
  });
  json Invocation = {{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = Notifications;
  Merged["invocations"] = json::array({Invocation});
  return dumpJson({{"$schema", Parsed.front()["$schema"]},
                   {"version", "2.1.0"},
                   {"runs", json::array({Merged})}}) +
         "\n";
}

llvm::Expected<std::string> mergeReports(const std::vector<Report> &Reports) {
  if (Reports.empty())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "merge: no reports to merge");
  std::vector<json> Parsed;
  for (const Report &R : Reports) {
    Parsed.push_back(json::parse(R.Text, nullptr, false));
    if (Parsed.back().is_discarded())
      return mergeError(R, "not JSON");
  }
  try {
    if (Parsed.front().is_array())
      return mergeJson(Reports, Parsed);
    return mergeSarif(Reports, Parsed);
  } catch (const json::exception &E) {
    // A field of the wrong type, e.g. "line": "7".
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot merge: a malformed report: %s",
                                   E.what());
  }
}

int runMerge(llvm::ArrayRef<const char *> Args) {
  auto Fail = [](const llvm::Twine &Message) {
    llvm::errs() << "torch-tidy: error: " << Message << "\n";
    return 1;
  };
  std::string Output;
  std::vector<Report> Reports;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-o" || Arg == "--output") {
      if (I + 1 == Args.size())
        return Fail(Arg + " needs a file");
      Output = Args[++I];
    } else if (Arg.consume_front("--output=") || Arg.consume_front("-o")) {
      Output = Arg.str();
    } else if (Arg == "-h" || Arg == "--help") {
      llvm::outs() << "USAGE: torch-tidy merge [-o FILE] REPORT...\n\n"
                      "Joins the SARIF (or JSON) reports of --shard runs into "
                      "one, as one run\nwould have written it.\n";
      return 0;
    } else if (Arg.starts_with("-")) {
      return Fail("merge: unknown option '" + Arg + "'");
    } else {
      auto Text = llvm::MemoryBuffer::getFile(Arg);
      if (!Text)
        return Fail("cannot read '" + Arg + "': " + Text.getError().message());
      Reports.push_back({Arg.str(), (*Text)->getBuffer().str()});
    }
  }
  auto Merged = mergeReports(Reports);
  if (!Merged)
    return Fail(llvm::toString(Merged.takeError()));
  if (Output.empty()) {
    llvm::outs() << *Merged;
    return 0;
  }
  if (llvm::Error Err = writeFileAtomically(Output, *Merged))
    return Fail(llvm::toString(std::move(Err)));
  return 0;
}

} // namespace torch_tidy
