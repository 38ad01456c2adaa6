package lakegc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The interop harness: real Apache Hudi (Spark local mode) answering the
 * questions lakegc answers. JSON on stdout, errors on stderr; exit 0 ok, 1 a
 * check found differences (verify), 2 bad input.
 */
public final class Main {
  static final String USAGE = String.join("\n",
      "usage: hudi COMMAND ...",
      "  generate --seed N --out DIR [--table-version 6|8|9] [--type COW|MOR] [--mdt on|off]",
      "           [--partitioned on|off] [--occ on|off] [--ops N] [--strays on|off]",
      "           [--mdt-indexes files|stats|bloom]",
      "  view DIR [--as-of T] [--listing storage|metadata]",
      "  plan-clean DIR [--conf K=V ...] [--now T]",
      "  plan-ttl DIR [--conf K=V ...] [--now T]",
      "  plan-archive DIR [--conf K=V ...] [--keep-copy DIR2]",
      "  archived-timeline DIR   a table's active and archived instants as Hudi loads them (layout 2: the LSM history record by record)",
      "  bench-clean DIR [--conf K=V ...] [--now T] [--repeat N]   plan-clean in place, timed (benchmark)",
      "  clean-run DIR [--conf K=V ...] [--now T]   Hudi's own clean, in place (write client, inline config)",
      "  index-state DIR --files FILE   column stats and bloom filters the metadata table holds for the files",
      "                                 FILE lists (JSON array of paths relative to DIR), and the columns Hudi's clean uses",
      "  baseline DIR",
      "  verify DIR --baseline FILE [--promised T1,T2,...]",
      "  continue DIR --commits N [--occ] [--conf K=V ...]",
      "  fail-after-mdt DIR [--conf K=V ...]   an upsert un-published after its metadata-table commit",
      "  batch FILE|-      one command per line (a JSON array of arguments, or words);",
      "                    prints one JSON object per line: {\"args\", \"exit\", \"result\"|\"error\", \"ms\"}",
      "");

  private Main() {}

  public static void main(String[] argv) {
    int rc;
    if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("-h")) {
      System.out.print(USAGE);
      System.exit(argv.length == 0 ? 2 : 0);
    }
    if (argv[0].equals("batch")) {
      rc = batch(Arrays.asList(argv).subList(1, argv.length));
    } else {
      Result r = runOne(Arrays.asList(argv));
      if (r.error != null) {
        System.err.println("hudi " + argv[0] + ": " + r.error);
      } else {
        System.out.println(Json.str(r.result));
      }
      rc = r.exit;
    }
    System.out.flush();
    Env.stop();
    System.exit(rc);
  }

  static final class Result {
    int exit;
    JsonNode result;
    String error;
  }

  static Result runOne(List<String> argv) {
    Result r = new Result();
    PrintStream realOut = System.out;
    // Nothing but our JSON may reach stdout: Spark/Hudi chatter goes to stderr.
    System.setOut(System.err);
    try {
      r.result = dispatch(argv);
      r.exit = r.result.has("ok") && !r.result.get("ok").asBoolean(true) ? 1 : 0;
    } catch (BadInput e) {
      r.exit = 2;
      r.error = e.getMessage();
    } catch (Throwable e) {
      r.exit = 1;
      r.error = describe(e);
      e.printStackTrace(System.err);
    } finally {
      System.setOut(realOut);
    }
    return r;
  }

  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (sb.length() > 0) sb.append(" <- ");
      sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    return sb.toString();
  }

  static JsonNode dispatch(List<String> argv) throws Exception {
    if (argv.isEmpty()) throw new BadInput("no command");
    String cmd = argv.get(0);
    List<String> rest = argv.subList(1, argv.size());
    switch (cmd) {
      case "generate":
        return Generate.run(new Args(cmd, rest, Set.of("--seed", "--out", "--table-version", "--type", "--mdt",
            "--partitioned", "--ops", "--strays", "--occ", "--mdt-indexes"), Set.of()));
      case "view":
        return View.run(new Args(cmd, rest, Set.of("--as-of", "--listing"), Set.of()));
      case "plan-clean":
        return Plans.clean(new Args(cmd, rest, Set.of("--conf", "--now"), Set.of()));
      case "bench-clean":
        return Bench.clean(new Args(cmd, rest, Set.of("--conf", "--now", "--repeat"), Set.of()));
      case "plan-ttl":
        return Plans.ttl(new Args(cmd, rest, Set.of("--conf", "--now"), Set.of()));
      case "ttl-run", "ttl-plans", "replace-metadata", "snapshot-partitions": return Ttl.dispatch(cmd, rest);
      case "plan-archive":
        return Plans.archive(new Args(cmd, rest, Set.of("--conf", "--keep-copy"), Set.of()));
      case "archived-timeline":
        return Archived.run(new Args(cmd, rest, Set.of(), Set.of()));
      case "clean-run":
        return Indexes.cleanRun(new Args(cmd, rest, Set.of("--conf", "--now"), Set.of()));
      case "index-state":
        return Indexes.state(new Args(cmd, rest, Set.of("--files"), Set.of()));
      case "baseline":
        return Baseline.baseline(new Args(cmd, rest, Set.of(), Set.of()));
      case "verify":
        return Baseline.verify(new Args(cmd, rest, Set.of("--baseline", "--promised"), Set.of()));
      case "continue":
        return Continue.run(new Args(cmd, rest, Set.of("--commits", "--conf"), Set.of("--occ")));
      case "fail-after-mdt":
        return Continue.failAfterMdt(new Args(cmd, rest, Set.of("--conf"), Set.of()));
      case "clock":  // diagnostics: is the clock agent installed?
        ObjectNode o = Json.obj();
        o.put("agent", Clock.patched());
        o.put("now_ms", Clock.currentTimeMillis());
        return o;
      default:
        throw new BadInput("unknown command '" + cmd + "' (see --help)");
    }
  }

  /** Splits a line into words; a line starting with '[' is a JSON array of strings. */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    String t = line.trim();
    if (t.startsWith("[")) {
      JsonNode n = Json.parse(t);
      for (JsonNode w : n) out.add(w.asText());
      return out;
    }
    for (String w : t.split("\\s+")) if (!w.isEmpty()) out.add(w);
    return out;
  }

  static int batch(List<String> args) {
    if (args.size() != 1) {
      System.err.println("hudi batch: expected one FILE or -");
      return 2;
    }
    int worst = 0;
    try (BufferedReader in = args.get(0).equals("-")
        ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
        : Files.newBufferedReader(Path.of(args.get(0)))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank() || line.trim().startsWith("#")) continue;
        ObjectNode o = Json.obj();
        long t0 = System.currentTimeMillis();
        List<String> w;
        Result r;
        try {
          w = words(line);
          if (!w.isEmpty() && w.get(0).equals("batch")) throw new BadInput("batch cannot nest");
          r = runOne(w);
        } catch (BadInput e) {
          w = List.of(line);
          r = new Result();
          r.exit = 2;
          r.error = e.getMessage();
        }
        o.set("args", Json.M.valueToTree(w));
        o.put("exit", r.exit);
        if (r.error != null) o.put("error", r.error);
        else o.set("result", r.result);
        o.put("ms", System.currentTimeMillis() - t0);
        System.out.println(Json.str(o));
        System.out.flush();
        worst = Math.max(worst, r.exit == 0 ? 0 : 1);
      }
    } catch (java.io.IOException e) {
      System.err.println("hudi batch: " + e.getMessage());
      return 2;
    }
    return worst;
  }
}
