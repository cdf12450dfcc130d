package org.topupbatch.command;


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

    /**
     * The batches the argument names, at least one.
     *
     * @throws CommandFailure saying that the journal has no such batch
     */
    static List<BatchRecord> some(ReportingJournal journal, String wanted) {
        List<BatchRecord> matches = find(journal, wanted);
        if (matches.isEmpty()) {
            throw new CommandFailure("no batch '" + wanted + "' in the journal; give a batch id (first column of"
                    + " 'status', \"batch\" in summary.json) or the name of a file that was taken");
        }
        return matches;
    }

    /**
     * The one batch the argument names.
     *
     * @throws CommandFailure saying that there is no such batch, or that several have that name (with their ids)
     */
    static BatchRecord one(ReportingJournal journal, String wanted) {
        List<BatchRecord> matches = some(journal, wanted);
        if (matches.size() > 1) {
            throw new CommandFailure("'" + wanted + "' names " + matches.size() + " batches; give one of their ids: "
                    + matches.stream().map(b -> b.id() + " (started " + b.startedAt() + ")")
                    .collect(Collectors.joining(", ")));
        }
        return matches.get(0);
    }
}
