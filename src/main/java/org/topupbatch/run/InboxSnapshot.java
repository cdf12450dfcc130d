package org.topupbatch.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.GenericFileFilter;

/**
 * The file filter of the intake route. In once mode only the batches present at start are taken
 * (a file arriving later waits for the next run); in watch mode every complete {@code *.csv} is.
 */
public class InboxSnapshot implements GenericFileFilter<Object> {

    private final Path inbox;
    private final Set<String> names;

    private InboxSnapshot(Path inbox, Set<String> names) {
        this.inbox = inbox;
        this.names = names;
    }

    /** Accepts whatever is there now or later. */
    public static InboxSnapshot everything(Path inbox) {
        return new InboxSnapshot(inbox, null);
    }

    /** Accepts only the batches present now. */
    public static InboxSnapshot takenNow(Path inbox) {
        return new InboxSnapshot(inbox, Set.copyOf(list(inbox)));
    }

    /**
     * Also accepts a name no longer in the inbox. Only one caller asks about such a name: Camel's
     * clean-up of orphan lock files at start, which asks about the batch a {@code NAME.camelLock}
     * stands for. A process killed after moving a batch to the archive and before deleting its lock
     * leaves that lock behind; refusing the gone batch would keep the lock in a once run's inbox forever.
     */
    @Override
    public boolean accept(GenericFile<Object> file) {
        return file.isDirectory() || names == null || names.contains(file.getFileName())
                || !Files.exists(inbox.resolve(file.getFileName()));
    }

    /** True when every batch of the snapshot has left the inbox (taken and archived). */
    public boolean allTaken() {
        if (names == null) {
            return true;
        }
        return list(inbox).stream().noneMatch(names::contains);
    }

    static Set<String> list(Path inbox) {
        Set<String> found = new TreeSet<>();
        if (!Files.isDirectory(inbox)) {
            return found;
        }
        try (Stream<Path> files = Files.list(inbox)) {
            files.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.toLowerCase(Locale.ROOT).endsWith(".csv") || n.toLowerCase(Locale.ROOT).endsWith(".xlsx"))
                    .filter(n -> !n.startsWith("~$"))
                    .forEach(found::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the inbox " + inbox, e);
        }
        return found;
    }
}
