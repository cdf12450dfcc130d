package org.topupbatch.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.topupbatch.testing.BuiltJar;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a method reports done survives the process dying right after: a child JVM commits
 * through the journal and halts at once (no shutdown hooks, no close, like SIGKILL for
 * everything the JVM holds in memory); the parent then reopens the database.
 */
class JournalKillTest {

    @TempDir
    Path data;

    @Test
    void committedWorkSurvivesAHaltedProcess() throws Exception {
        String java = BuiltJar.java();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                JournalKillTest.class.getName(), data.toString())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes());
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isEqualTo(137);

        try (JdbcJournal journal = JdbcJournal.open(data, null, null, null)) {
            RowRecord row = journal.tracking().findOrder("K-1").orElseThrow();
            assertThat(row.state()).isEqualTo(RowState.SENDING);
            assertThat(journal.tracking().findOrder("K-2").orElseThrow().state()).isEqualTo(RowState.ACCEPTED);
            // the reservation is there, its answer never recorded
            assertThat(journal.callLog().callsSince(Instant.EPOCH)).singleElement().matches(call -> !call.completed());
            assertThat(journal.tracking().sendingToUnknown(Instant.now())).isEqualTo(1);
        }
    }

    /** The child: records a batch, marks a row sending, reserves a call, then dies without closing. */
    public static void main(String[] args) {
        JdbcJournal journal = JdbcJournal.open(Path.of(args[0]), null, null, null);
        long id;
        try (BatchWriter writer = journal.intake().openBatch("k.csv", ',', List.of(), "archive/k.csv")) {
            writer.add(JournalContractTest.accepted(0, "K-1"));
            writer.add(JournalContractTest.accepted(1, "K-2"));
            id = writer.commit();
        }
        long rowId = journal.submission().nextToSubmit(1).get(0).id();
        journal.submission().markSending(rowId, Instant.now());
        journal.callLog().reserveCall(Instant.now(), "order");
        System.out.println("batch " + id + " committed");
        Runtime.getRuntime().halt(137);
    }
}
