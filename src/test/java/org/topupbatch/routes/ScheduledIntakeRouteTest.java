package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.component.quartz.QuartzComponent;
import org.junit.jupiter.api.Test;
import org.quartz.CronTrigger;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

/**
 * intake.yaml with topup.schedule: the inbox is polled by the cron trigger alone, not as soon as a
 * file lands. The trigger is fired by hand, so the test waits for no clock.
 */
class ScheduledIntakeRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake");
    }

    @Override
    void environment(Map<String, String> env) {
        env.put("TOPUP_SCHEDULE", "0 2 * * *"); // 02:00 every night, as an operator writes it
    }

    @Test
    void the_inbox_is_taken_when_the_nightly_trigger_fires_and_not_before() throws Exception {
        Trigger trigger = intakeTrigger();
        assertThat(((CronTrigger) trigger).getCronExpression()).isEqualTo("0 0 2 * * ?");
        LocalDateTime next = LocalDateTime.ofInstant(trigger.getNextFireTime().toInstant(), ZoneId.systemDefault());
        assertThat(next.getHour() * 60 + next.getMinute()).as("next poll at 02:00, not now: %s", next).isEqualTo(120);
        assertThat(next).isAfter(LocalDateTime.now());

        NotifyBuilder taken = whenDone("intake", 1);
        Path file = drop("nightly.csv", IntakeRouteTest.BATCH);
        assertThat(taken.matches()).as("nothing taken before the trigger fires").isFalse();
        assertThat(file).exists();

        scheduler().triggerJob(trigger.getJobKey()); // what 02:00 does

        await(taken, "nightly.csv is taken when the trigger fires");
        assertThat(file).doesNotExist();
        assertThat(rows("nightly.csv")).hasSize(3);
    }

    private Trigger intakeTrigger() throws Exception {
        Set<TriggerKey> keys = scheduler().getTriggerKeys(GroupMatcher.anyTriggerGroup());
        TriggerKey key = keys.stream().filter(k -> k.getName().equals("topup-intake")).findFirst()
                .orElseThrow(() -> new AssertionError("no Quartz trigger topup-intake polls the inbox: " + keys));
        return scheduler().getTrigger(key);
    }

    private Scheduler scheduler() {
        return context.getComponent("quartz", QuartzComponent.class).getScheduler();
    }
}
