package lakegc.interop;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The harness's virtual clock. {@link ClockAgent} rewrites the calls Hudi makes
 * to read the time when it generates instant times and when it plans table
 * services, so that
 *
 * <ul>
 *   <li>{@code generate} can spread a table's instants over days of virtual time
 *       (hours between commits: KEEP_LATEST_BY_HOURS, empty-clean intervals and
 *       partition TTL become meaningful in a scenario that runs for a minute), and
 *   <li>{@code plan-clean --now T} plans exactly "as of" T, as {@code lakegc plan
 *       clean --now T} does.
 * </ul>
 *
 * Virtual time only moves forward within a JVM (Hudi refuses to generate an
 * instant time that is not later than the last one it generated).
 * Heartbeats and locks keep reading the real clock: they compare against file
 * modification times, which are real.
 */
public final class Clock {
  private static final AtomicLong OFFSET_MS = new AtomicLong(0);
  /** When set, what planning code sees as "now" (epoch ms); instant generation is unaffected. */
  private static volatile Long planningNowMs = null;

  private Clock() {}

  /** Replaces System.currentTimeMillis() in Hudi's instant-time generator. */
  public static long currentTimeMillis() {
    return System.currentTimeMillis() + OFFSET_MS.get();
  }

  /** Replaces Instant.now() in Hudi's instant-time generator. */
  public static Instant instantNow() {
    return Instant.ofEpochMilli(currentTimeMillis());
  }

  /** Replaces Instant.now() in Hudi's clean, archive and TTL planning. */
  public static Instant planningNow() {
    Long p = planningNowMs;
    return p != null ? Instant.ofEpochMilli(p) : instantNow();
  }

  /** Moves virtual time forward by {@code ms}. */
  public static void advance(long ms) {
    if (ms > 0) OFFSET_MS.addAndGet(ms);
  }

  /** Makes virtual time later than {@code epochMs} (plus a second). */
  public static void ensureAfter(long epochMs) {
    long now = currentTimeMillis();
    if (now <= epochMs + 1000) OFFSET_MS.addAndGet(epochMs + 1000 - now + 1);
  }

  public static void setPlanningNow(Long epochMs) {
    planningNowMs = epochMs;
  }

  public static boolean patched() {
    return ClockAgent.installed;
  }
}
