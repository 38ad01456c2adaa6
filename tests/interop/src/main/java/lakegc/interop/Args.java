package lakegc.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** `CMD POSITIONAL... --opt value --flag`; unknown options are bad input. */
final class Args {
  final String command;
  final List<String> positional = new ArrayList<>();
  final Map<String, List<String>> options = new LinkedHashMap<>();

  Args(String command, List<String> args, Set<String> valued, Set<String> flags) {
    this.command = command;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--")) {
        String key = a;
        String value = null;
        int eq = a.indexOf('=');
        if (eq > 0 && valued.contains(a.substring(0, eq))) {
          key = a.substring(0, eq);
          value = a.substring(eq + 1);
        }
        if (flags.contains(key)) {
          options.computeIfAbsent(key, k -> new ArrayList<>()).add("true");
        } else if (valued.contains(key)) {
          if (value == null) {
            if (i + 1 >= args.size()) throw new BadInput(command + ": " + key + " needs a value");
            value = args.get(++i);
          }
          options.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        } else {
          throw new BadInput(command + ": unknown option " + a);
        }
      } else {
        positional.add(a);
      }
    }
  }

  String last(String key) {
    List<String> v = options.get(key);
    return v == null ? null : v.get(v.size() - 1);
  }

  String get(String key, String dflt) {
    String v = last(key);
    return v == null ? dflt : v;
  }

  boolean flag(String key) {
    return options.containsKey(key);
  }

  List<String> all(String key) {
    return options.getOrDefault(key, List.of());
  }

  String table() {
    if (positional.size() != 1) throw new BadInput(command + ": expected exactly one table directory");
    return positional.get(0);
  }

  int intOpt(String key, int dflt, int min, int max) {
    String v = last(key);
    if (v == null) return dflt;
    try {
      int n = Integer.parseInt(v);
      if (n < min || n > max) throw new BadInput(command + ": " + key + " must be in [" + min + ", " + max + "]");
      return n;
    } catch (NumberFormatException e) {
      throw new BadInput(command + ": " + key + " '" + v + "' is not a number");
    }
  }

  /** --conf k=v pairs. */
  Map<String, String> confs() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : all("--conf")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) throw new BadInput(command + ": --conf '" + kv + "': expected KEY=VALUE");
      m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return m;
  }
}
