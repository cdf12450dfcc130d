package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Who is told what happened (docs/operating.md#notifications).
 *
 * @param uris       Camel endpoint URIs; empty: none
 * @param lowBalance rupiah; null: no balance_low notice
 */
public record NotifySettings(List<String> uris, Long lowBalance) {

    static final Setting<List<String>> URIS = Setting.of("topup.notify.uris", null,
            "where to tell people what happened", NotifySettings::uris);
    static final Setting<Long> LOW_BALANCE = Setting.of("topup.notify.low-balance", null,
            "rupiah", NotifySettings::rupiah);

    static final List<Setting<?>> DECLARED = List.of(URIS, LOW_BALANCE);

    static NotifySettings load(Function<String, String> lookup) {
        List<String> uris = URIS.read(lookup);
        return new NotifySettings(uris == null ? List.of() : uris, LOW_BALANCE.read(lookup));
    }

    /**
     * Camel endpoint URIs, comma-separated; a comma inside a URI (smtp's {@code to=a@x,b@y}) stays,
     * since only a comma followed by another scheme starts the next one.
     */
    private static List<String> uris(String key, String v) {
        List<String> uris = new ArrayList<>();
        for (String uri : v.split(",(?=\\s*[A-Za-z][A-Za-z0-9+.-]*:)")) {
            String u = uri.trim();
            if (!u.matches("[A-Za-z][A-Za-z0-9+.-]*:.+")) {
                throw new SettingsException(key + ": '" + Settings.shownUri(u)
                        + "' is not an endpoint address such as smtp://mail.example.com:587?to=ops@example.com,"
                        + " telegram:bots?chatId=... or https://erp.example.com/topup-events");
            }
            uris.add(u);
        }
        return List.copyOf(uris);
    }

    private static Long rupiah(String key, String v) {
        String digits = v.replace(".", "").replace("_", "").replaceFirst("^(?i)rp\\s*", "");
        if (!digits.matches("\\d{1,15}")) {
            throw new SettingsException(key + ": '" + v + "' is not an amount in rupiah such as 500000");
        }
        return Long.parseLong(digits);
    }
}
