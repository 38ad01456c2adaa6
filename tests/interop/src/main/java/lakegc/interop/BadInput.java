package lakegc.interop;

/** Bad usage or bad input: exit code 2. */
final class BadInput extends RuntimeException {
  BadInput(String message) {
    super(message);
  }
}
