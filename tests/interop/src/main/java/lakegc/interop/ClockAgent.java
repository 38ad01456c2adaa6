package lakegc.interop;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.time.Instant;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.MemberSubstitution;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * A -javaagent (the harness jar itself) that points Hudi's reads of the clock
 * at {@link Clock}. Only the classes listed here are touched:
 *
 * <ul>
 *   <li>instant-time generation: SkewAdjustingTimeGenerator
 *       (System.currentTimeMillis) and HoodieInstantTimeGenerator (Instant.now);
 *   <li>planning "now": CleanPlanner (KEEP_LATEST_BY_HOURS cutoff),
 *       CleanPlanActionExecutor (empty-clean interval), ArchivalUtils, and
 *       TimelineMetadataUtils (savepointedAt).
 * </ul>
 */
public final class ClockAgent {
  static volatile boolean installed = false;

  static final Set<String> GENERATOR_CLASSES = Set.of(
      "org.apache.hudi.common.table.timeline.SkewAdjustingTimeGenerator",
      "org.apache.hudi.common.table.timeline.HoodieInstantTimeGenerator",
      "org.apache.hudi.common.table.timeline.TimelineMetadataUtils");
  static final Set<String> PLANNING_CLASSES = Set.of(
      "org.apache.hudi.table.action.clean.CleanPlanner",
      "org.apache.hudi.table.action.clean.CleanPlanActionExecutor",
      "org.apache.hudi.client.utils.ArchivalUtils");

  private ClockAgent() {}

  public static void premain(String args, Instrumentation inst) throws Exception {
    new AgentBuilder.Default()
        .with(AgentBuilder.Listener.NoOp.INSTANCE)
        .type(ElementMatchers.namedOneOf(GENERATOR_CLASSES.toArray(new String[0]))
            .or(ElementMatchers.namedOneOf(PLANNING_CLASSES.toArray(new String[0]))))
        .transform((builder, type, loader, module, pd) -> {
          boolean planning = PLANNING_CLASSES.contains(type.getName());
          try {
            return builder.visit(MemberSubstitution.relaxed()
                .method(named("currentTimeMillis").and(isDeclaredBy(System.class)))
                .replaceWith(Clock.class.getMethod("currentTimeMillis"))
                .method(named("now").and(isDeclaredBy(Instant.class)).and(takesArguments(0)))
                .replaceWith(Clock.class.getMethod(planning ? "planningNow" : "instantNow"))
                .on(ElementMatchers.any()));
          } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
          }
        })
        .installOn(inst);
    installed = true;
  }
}
