package org.topupbatch.settings;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The guards between a row and money spent (docs/money-guards.md): what a batch may cost against the
 * balance, repeated orders, prices risen since acceptance, and the customer rules.
 *
 * @param repeatWindow   ZERO turns the repeat guard off
 * @param priceTolerance in percent
 * @param customerRules  an operator's own rules file; null: the bundled one
 */
public record MoneyGuardSettings(BalancePolicy balancePolicy, Duration repeatWindow, BigDecimal priceTolerance,
        String customerRules) {

    static final Setting<BalancePolicy> BALANCE_POLICY = Setting.of("topup.balance-policy", "best-effort",
            "best-effort: accept rows in file order while the balance covers them", MoneyGuardSettings::balancePolicy);
    static final Setting<Duration> REPEAT_WINDOW = Setting.of("topup.repeat-window", "24h",
            "the repeat guard", MoneyGuardSettings::repeatWindow);
    static final Setting<BigDecimal> PRICE_TOLERANCE = Setting.of("topup.price-tolerance", "10%",
            "the price at sending", MoneyGuardSettings::priceTolerance);
    static final Setting<String> CUSTOMER_RULES = Setting.of("topup.customer-rules", null,
            "an operator's own customer rules file", SettingChecks::text);

    static final List<Setting<?>> DECLARED = List.of(BALANCE_POLICY, REPEAT_WINDOW, PRICE_TOLERANCE, CUSTOMER_RULES);

    static MoneyGuardSettings load(Function<String, String> lookup) {
        return new MoneyGuardSettings(BALANCE_POLICY.read(lookup), REPEAT_WINDOW.read(lookup),
                PRICE_TOLERANCE.read(lookup), CUSTOMER_RULES.read(lookup));
    }

    private static BalancePolicy balancePolicy(String key, String v) {
        return BalancePolicy.parse(v).orElseThrow(() -> new SettingsException(
                key + ": '" + v + "' is neither best-effort nor all-or-nothing"));
    }

    /** A time as other durations, or 0 (any unit) to turn the repeat guard off. */
    private static Duration repeatWindow(String key, String raw) {
        if (raw.equals("0")) {
            return Duration.ZERO;
        }
        try {
            return DurationSetting.parse(key, raw);
        } catch (SettingsException e) {
            throw new SettingsException(key + ": '" + raw
                    + "' is not a time such as 30m, 24h or 7d (0 turns the repeat guard off)");
        }
    }

    /** {@code 10%} (the {@code %} may be left out): how far a price may rise above the one a row was accepted at. */
    private static BigDecimal priceTolerance(String key, String raw) {
        String number = raw.endsWith("%") ? raw.substring(0, raw.length() - 1).trim() : raw;
        try {
            BigDecimal percent = new BigDecimal(number);
            if (percent.signum() < 0 || percent.compareTo(BigDecimal.valueOf(1000)) > 0) {
                throw new NumberFormatException();
            }
            return percent;
        } catch (NumberFormatException e) {
            throw new SettingsException(key + ": '" + raw
                    + "' is not a percentage from 0% to 1000% such as 10% (0% sends nothing dearer than when accepted)");
        }
    }
}
