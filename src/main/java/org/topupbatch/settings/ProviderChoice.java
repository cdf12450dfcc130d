package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.topupbatch.sandbox.SandboxConfig;

/**
 * Which provider a run orders from. The embedded sandbox is chosen only when none of
 * {@code topup.base-url}, {@code topup.api-key} and {@code topup.api-secret} is set: an operator who
 * set any of them meant the real provider, and half a configuration must stop the start instead of
 * quietly placing test orders (docs/settings.md#settings).
 *
 * @param baseUrl   null for the embedded sandbox
 * @param apiKey    the sandbox's demo key when embedded
 * @param apiSecret the sandbox's demo secret when embedded
 */
record ProviderChoice(String baseUrl, String apiKey, String apiSecret) {

    private static final String BASE_URL = "topup.base-url";
    private static final String API_KEY = "topup.api-key";
    private static final String API_SECRET = "topup.api-secret";

    /** Takes the three values as read (null = not set); throws {@link SettingsException} when only some are set. */
    static ProviderChoice of(String baseUrl, String apiKey, String apiSecret) {
        if (baseUrl == null && apiKey == null && apiSecret == null) {
            SandboxConfig demo = SandboxConfig.defaults();
            return new ProviderChoice(null, demo.apiKey(), demo.apiSecret());
        }
        List<String> set = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        (baseUrl == null ? missing : set).add(BASE_URL);
        (apiKey == null ? missing : set).add(API_KEY);
        (apiSecret == null ? missing : set).add(API_SECRET);
        if (!missing.isEmpty()) {
            throw new SettingsException(and(set) + (set.size() == 1 ? " is" : " are") + " set but " + and(missing)
                    + (missing.size() == 1 ? " is" : " are") + " not (set "
                    + missing.stream().map(SettingsLookup::environmentName).collect(Collectors.joining(" and "))
                    + ")");
        }
        return new ProviderChoice(baseUrl, apiKey, apiSecret);
    }

    private static String and(List<String> keys) {
        return String.join(" and ", keys);
    }
}
