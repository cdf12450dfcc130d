package org.topupbatch.journal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The start-up options of a lock session ({@link JournalLock}): the operator's own, from the journal
 * URL's {@code options=} (a {@code search_path}, say), then the lock's server-side bound. pgjdbc lets a
 * URL parameter override a connection property, so passing the bound as a property alone would lose
 * it whenever the URL has {@code options=}; and dropping the operator's would put the lock session in
 * another schema than the journal's (the lock's key names the schema). So the URL's {@code options=}
 * is taken out and both go in one property. PostgreSQL applies start-up options in order, so when both
 * set the same server setting the bound, written last, wins: the lock's failover depends on it.
 *
 * @param url     the journal URL without its {@code options=} parameter, otherwise as written
 * @param options the operator's options (decoded as pgjdbc decodes them), then the bound
 */
record LockSessionOptions(String url, String options) {

    private static final String PARAMETER = "options=";

    static LockSessionOptions of(String journalUrl, String bound) {
        int query = journalUrl.indexOf('?');
        if (query < 0) {
            return new LockSessionOptions(journalUrl, bound);
        }
        List<String> kept = new ArrayList<>();
        List<String> own = new ArrayList<>();
        for (String parameter : journalUrl.substring(query + 1).split("&")) {
            if (parameter.startsWith(PARAMETER)) {
                String value = URLDecoder.decode(parameter.substring(PARAMETER.length()), StandardCharsets.UTF_8).strip();
                if (!value.isEmpty()) {
                    own.add(value);
                }
            } else if (!parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        own.add(bound);
        String base = journalUrl.substring(0, query);
        return new LockSessionOptions(kept.isEmpty() ? base : base + "?" + String.join("&", kept), String.join(" ", own));
    }
}
