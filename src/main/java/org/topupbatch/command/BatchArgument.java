package org.topupbatch.command;

import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.Settings;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.ReportingJournal;

/**
 * The BATCH argument of the operator commands ({@code report}, {@code retry-failed},
 * {@code status BATCH}): a batch id, or the name of an input file, with or without {@code .csv}.
 */
final class BatchArgument {

    private BatchArgument() {
    }

    /** Every batch the argument may mean: a number is tried as a batch id first; a name as given, then with ".csv" added. */
    static List<BatchRecord> find(ReportingJournal journal, String wanted) {
        if (wanted.chars().allMatch(Character::isDigit) && wanted.length() < 19) {
            Optional<BatchRecord> byId = journal.batch(Long.parseLong(wanted));
            if (byId.isPresent()) {
                return List.of(byId.get());
            }
        }
        List<BatchRecord> byName = journal.batchesForFile(wanted);
        if (byName.isEmpty() && !wanted.toLowerCase(Locale.ROOT).endsWith(".csv")) {
            byName = journal.batchesForFile(wanted + ".csv");
        }
        return byName;
    }

    /** The batches the argument names; none after one line on {@code err} saying so. */
    static List<BatchRecord> some(ReportingJournal journal, String wanted, PrintStream err) {
        List<BatchRecord> matches = find(journal, wanted);
        if (matches.isEmpty()) {
            err.println("topup-batch: no batch '" + wanted + "' in the journal; give a batch id (first column of"
                    + " 'status', \"batch\" in summary.json) or the name of a file that was taken");
        }
        return matches;
    }

    /** The one batch the argument names; empty after one line on {@code err} saying why. */
    static Optional<BatchRecord> one(ReportingJournal journal, String wanted, PrintStream err) {
        List<BatchRecord> matches = some(journal, wanted, err);
        if (matches.size() > 1) {
            err.println("topup-batch: '" + wanted + "' names " + matches.size() + " batches; give one of their ids: "
                    + matches.stream().map(b -> b.id() + " (started " + b.startedAt() + ")")
                    .collect(Collectors.joining(", ")));
            return Optional.empty();
        }
        return matches.stream().findFirst();
    }

    /** The settings the commands share with the service; empty after one line on {@code err} naming the bad one. */
    static Optional<Settings> settings(java.util.function.Function<String, String> lookup, PrintStream err) {
        try {
            return Optional.of(Settings.load(lookup));
        } catch (SettingsException e) {
            err.println("topup-batch: bad setting: " + e.getMessage());
            return Optional.empty();
        }
    }
}
