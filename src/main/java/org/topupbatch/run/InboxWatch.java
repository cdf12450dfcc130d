package org.topupbatch.run;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.notify.Notice;
import org.topupbatch.observe.InboxFolder;

/**
 * Looks at the local inbox folder every 5 s (routes/progress.yaml, route inbox-watch): a folder gone or
 * unreadable takes no file and nothing else says so, so the first look that finds it so tells the
 * notifications ({@code inbox_unreadable}) and the log, once, and again once it is readable.
 */
public final class InboxWatch {

    private static final Logger LOG = LoggerFactory.getLogger(InboxWatch.class);

    private final Path inbox;
    private final String shown;
    private final Consumer<Notice> notices;
    private boolean unreadable;

    public InboxWatch(Path inbox, String shown, Consumer<Notice> notices) {
        this.inbox = inbox;
        this.shown = shown;
        this.notices = notices;
    }

    public synchronized void look() {
        String why = InboxFolder.problem(inbox);
        boolean readable = why == null;
        if (!readable && !unreadable) {
            LOG.warn("The inbox {} takes no file: {} (set {})", shown, why, InboxFolder.SETTING);
            // no journal change causes this notice (a folder went away): it is recorded in the outbox in a
            // transaction of its own; a crash before that loses it, and the next start looks again and tells it
            notices.accept(new Notice("inbox_unreadable", "topup-batch: the inbox cannot be read",
                    "The inbox " + shown + " takes no file: " + why + ". Batches dropped there wait until it can be read.",
                    Map.of("inbox", shown, "reason", why)));
        } else if (readable && unreadable) {
            LOG.info("The inbox {} can be read again", shown);
        }
        unreadable = !readable;
    }
}
