package org.topupbatch.run;

import org.topupbatch.settings.JournalSettings;
import org.topupbatch.settings.ProviderName;

import java.util.List;

/**
 * Refuses a start that would mix the embedded sandbox's trial orders with a real provider's in one
 * journal: the trial ref_ids would reject a real batch as already submitted, and trial orders left
 * pending would be looked up at the real provider. Only the kind counts (sandbox or not): moving
 * from one real provider's address to another is the operator's business.
 */
public final class ProviderSwitchCheck {

    private ProviderSwitchCheck() {
    }

    /**
     * @param servedBy the providers the journal's batches were served by ({@code sandbox} or a host)
     * @param now      who serves this run, as {@link ProviderName} names it
     * @param journal  where the journal is, as the operator knows it (e.g. {@code data/})
     * @return the one line why the run cannot start, or null
     */
    public static String problem(List<String> servedBy, String now, String journal) {
        boolean sandboxNow = now.equals(ProviderName.SANDBOX);
        if (!sandboxNow && servedBy.contains(ProviderName.SANDBOX)) {
            return "the journal " + journal + " holds the embedded sandbox's trial orders; use a fresh topup.data"
                    + " (TOPUP_DATA) or a fresh topup.db.url for the provider at " + now + " (move the old one away to"
                    + " keep the trials)";
        }
        if (sandboxNow) {
            String real = servedBy.stream().filter(p -> !p.equals(ProviderName.SANDBOX)).findFirst().orElse(null);
            if (real != null) {
                return "the journal " + journal + " holds orders of the provider at " + real + "; the embedded sandbox"
                        + " (no TOPUP_BASE_URL, TOPUP_API_KEY, TOPUP_API_SECRET set) must not mix its trial orders into"
                        + " it: set the provider's settings, or use a fresh topup.data (TOPUP_DATA) for trials";
            }
        }
        return null;
    }

    /** The journal as the operator configured it: the data folder, or the database URL (its password hidden). */
    public static String where(JournalSettings journal, java.nio.file.Path data) {
        if (journal.url() == null) {
            return "in " + data + "/";
        }
        return "at " + journal.url().replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
