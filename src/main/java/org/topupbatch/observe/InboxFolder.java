package org.topupbatch.observe;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the local inbox folder can take files, and if not, why, in words an operator acts on. One
 * answer for the start-up check (a once run refuses), the readiness check and the inbox watch's log
 * line, so that all three say the same.
 */
public final class InboxFolder {

    /** The setting an operator corrects, named in every message about the folder. */
    public static final String SETTING = "topup.inbox / TOPUP_INBOX";

    private InboxFolder() {
    }

    /** Null when the folder can be listed; else what stands in the way ("it does not exist"...). */
    public static String problem(Path inbox) {
        if (Files.isDirectory(inbox)) {
            return Files.isReadable(inbox) && Files.isExecutable(inbox) ? null : "it cannot be read by this user";
        }
        return Files.exists(inbox) ? "it is not a folder" : "it does not exist";
    }

    /**
     * Only the default relative {@code inbox} (the setting unset, or set to exactly that) may be made
     * by the product: a fresh checkout or unpacked release starts without one. Any other folder named
     * in the setting that is missing is a mistake (a typo, an unmounted share) to report, never to
     * paper over with an empty folder nobody drops files into.
     */
    public static boolean mayBeCreated(Path inbox) {
        return inbox.equals(Path.of("inbox"));
    }
}
