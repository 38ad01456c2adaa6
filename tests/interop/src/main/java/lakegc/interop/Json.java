package lakegc.interop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON helpers (Jackson, as Spark ships it). */
final class Json {
  static final ObjectMapper M = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private Json() {}

  static ObjectNode obj() {
    return M.createObjectNode();
  }

  static ArrayNode arr() {
    return M.createArrayNode();
  }

  static String str(JsonNode n) {
    try {
      return M.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The JSON file that option `key` of command `a` names (required). */
  static JsonNode file(Args a, String key) {
    String file = a.last(key);
    if (file == null) throw new BadInput(a.command + ": " + key + " FILE is required");
    try {
      return parse(java.nio.file.Files.readString(java.nio.file.Path.of(file)));
    } catch (java.io.IOException e) {
      throw new BadInput(a.command + ": cannot read " + file + ": " + e.getMessage());
    }
  }

  static JsonNode parse(String s) {
    try {
      return M.readTree(s);
    } catch (JsonProcessingException e) {
      throw new BadInput("not JSON: " + e.getOriginalMessage());
    }
  }
}
