package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.component.quartz.QuartzComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quartz.CronExpression;
import org.quartz.CronTrigger;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.testing.Poll;

/**
 * intake.yaml with topup.schedule: the inbox is polled by the cron trigger alone, not as soon as a
 * file lands. One test reads the operator's nightly schedule as Quartz holds it and fires it by hand;
 * the other runs on a schedule of every 6 s, lets it fire by itself and checks when the file was taken.
 */
class ScheduledIntakeRouteTest extends RouteTestSupport {

    /** The near schedule: every 6 s, in the Quartz form (with seconds) the setting accepts too. */
    private static final String EVERY_6_S = "0/6 * * * * ?";
    /**
     * What a consumer that did not wait for the schedule needs to take a dropped (already aged) file:
     * its poll delay of 1 s and the read lock's check interval of 1 s, with a margin.
     */
    private static final Duration UNSCHEDULED_TAKE = Duration.ofSeconds(3);
    /** The drop follows a scheduled poll by this much, so that poll has looked at the inbox (empty) and is over. */
    private static final Duration AFTER_A_POLL = Duration.ofMillis(1500);

    private final boolean nightly;

    ScheduledIntakeRouteTest(TestInfo test) {
        nightly = test.getTestMethod().orElseThrow().getName().startsWith("the_nightly");
    }

    @Override
    List<String> routes() {
        return List.of("intake");
    }

    @Override
    void environment(Map<String, String> env) {
        if (nightly) {
            env.put("TOPUP_SCHEDULE", "0 2 * * *"); // 02:00 every night, as an operator writes it
            return;
        }
        env.put("TOPUP_SCHEDULE", EVERY_6_S);
    }

    @Test
    void the_nightly_schedule_is_a_quartz_trigger_at_2_whose_firing_takes_the_inbox() throws Exception {
        Trigger trigger = intakeTrigger();
        assertThat(((CronTrigger) trigger).getCronExpression()).isEqualTo("0 0 2 * * ?");
        LocalDateTime next = LocalDateTime.ofInstant(trigger.getNextFireTime().toInstant(), ZoneId.systemDefault());
        assertThat(next.getHour() * 60 + next.getMinute()).as("next poll at 02:00, not now: %s", next).isEqualTo(120);
        assertThat(next).isAfter(LocalDateTime.now());

        NotifyBuilder taken = whenDone("intake", 1);
        Path file = drop("nightly.csv", IntakeRouteTest.BATCH);
        assertThat(file).exists();

        scheduler().triggerJob(trigger.getJobKey()); // what 02:00 does

        await(taken, "nightly.csv is taken when the trigger fires");
        assertThat(file).doesNotExist();
        assertThat(rows("nightly.csv")).hasSize(3);
    }

    @Test
    void a_file_dropped_between_two_scheduled_times_is_taken_at_the_next_one_and_not_before() throws Exception {
        // The schedule as the test reads it, independent of how the product turned it into a trigger.
        CronExpression schedule = new CronExpression(EVERY_6_S);
        // the drop must come early between two polls: after one is over and well before the next; a loaded
        // machine that wakes the test late in the gap waits for the next poll to be over instead (bounded)
        for (int gap = 0; gap < 5; gap++) {
            Instant polled = schedule.getNextValidTimeAfter(new Date()).toInstant();
            Poll.until("the scheduled poll of " + polled + " is over", Duration.ofSeconds(20),
                    () -> !Instant.now().isBefore(polled.plus(AFTER_A_POLL)) && triggerFiredSince(polled));
            Instant next = schedule.getNextValidTimeAfter(new Date()).toInstant();
            if (Duration.between(Instant.now(), next).compareTo(UNSCHEDULED_TAKE.plusMillis(500)) > 0) {
                break;
            }
        }

        NotifyBuilder taken = whenDone("intake", 1);
        Path file = drop("early.csv", IntakeRouteTest.BATCH);
        Instant dropped = Instant.now();
        Instant due = schedule.getNextValidTimeAfter(Date.from(dropped)).toInstant();
        assertThat(Duration.between(dropped, due)).as("the file waits longer than an unscheduled poll would let it"
                + " (else this test proves nothing): dropped %s, next scheduled poll %s", dropped, due)
                .isGreaterThan(UNSCHEDULED_TAKE);

        // the real event: the intake's exchange for the file, whenever it comes
        long waitMillis = Duration.between(Instant.now(), due).plus(WAIT).toMillis();
        assertThat(taken.matches(waitMillis, TimeUnit.MILLISECONDS)).as("early.csv is taken at all").isTrue();

        BatchRecord batch = batch("early.csv").orElseThrow();
        System.out.printf("early.csv dropped %s, next scheduled poll %s, taken %s%n", dropped, due, batch.startedAt());
        assertThat(batch.startedAt()).as("taken no earlier than the next scheduled poll (dropped %s, scheduled %s)", dropped, due)
                .isAfterOrEqualTo(due);
        Instant after = schedule.getNextValidTimeAfter(Date.from(due)).toInstant();
        assertThat(batch.startedAt()).as("taken by that scheduled poll itself, not the next (dropped %s, scheduled %s, next %s)",
                dropped, due, after).isBefore(after);
        assertThat(file).doesNotExist();
        assertThat(rows("early.csv")).hasSize(3);
        Trigger trigger = intakeTrigger();
        assertThat(((CronTrigger) trigger).getCronExpression()).isEqualTo(EVERY_6_S);
    }

    /** True once the intake's trigger has fired at or after {@code time}; true if there is no such trigger (the checks after the drop then fail). */
    private boolean triggerFiredSince(Instant time) {
        try {
            Set<TriggerKey> keys = scheduler().getTriggerKeys(GroupMatcher.anyTriggerGroup());
            Optional<TriggerKey> key = keys.stream().filter(k -> k.getName().equals("topup-intake")).findFirst();
            if (key.isEmpty()) {
                return true;
            }
            Date fired = scheduler().getTrigger(key.get()).getPreviousFireTime();
            return fired != null && !fired.toInstant().isBefore(time);
        } catch (SchedulerException e) {
            throw new IllegalStateException(e);
        }
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
