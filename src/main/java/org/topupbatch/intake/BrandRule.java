package org.topupbatch.intake;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The customer rule of one brand, and the verdict on a row's customer fields. A row is rejected
 * only for what is certain (a value outside the field's pattern, a control character, a required
 * zone missing, spreadsheet damage); every other doubt becomes a warning and the row is sent, since
 * a refused order costs nothing and a wrongly rejected one is a lost sale.
 *
 * @param zone                 the zone's field rule; null when the brand uses no zone
 * @param zoneInsideCustomerNo when found in customer_no, the zone is written inside it (Mobile
 *                             Legends' "123456789 (2012)"); null when the brand has no such form
 * @param strict               the operator's opt-in: values outside the usual zone values or prefixes
 *                             are rejected instead of warned about
 */
public record BrandRule(FieldRule customerNo, ZonePresence zonePresence, FieldRule zone,
                        Pattern zoneInsideCustomerNo, boolean strict) {

    public enum ZonePresence { REQUIRED, OPTIONAL, UNUSED }

    /** Checks trimmed customer fields ({@code zone} empty when absent) of a product of brand {@code name}. */
    public CustomerCheck check(String name, String customerNo, String zoneValue) {
        Optional<String> control = controlCharacter("customer_no", customerNo)
                .or(() -> controlCharacter("customer_no_zone", zoneValue));
        if (control.isPresent()) {
            return CustomerCheck.reject(control.get());
        }
        Optional<String> damage = SpreadsheetDamage.explain(customerNo, customerNo());
        if (damage.isPresent()) {
            return CustomerCheck.reject(damage.get());
        }
        if (!customerNo().fits(customerNo)) {
            return CustomerCheck.reject("customer_no must be " + customerNo().expectation());
        }
        List<String> warnings = new ArrayList<>();
        if (!customerNo().hasUsualPrefix(customerNo)) {
            String doubt = "customer_no " + customerNo + " does not start with a " + name + " prefix ("
                    + String.join(", ", customerNo().prefixes()) + ")";
            if (strict) {
                return CustomerCheck.reject(doubt + "; the customer rules accept only these for " + name);
            }
            warnings.add(doubt + "; sent anyway, the provider decides");
        }
        if (customerNo().phone() && MobileNumber.hasSeparators(customerNo)) {
            warnings.add("customer_no " + customerNo + " is written with spaces or dashes; sent as written,"
                    + " the provider decides");
        }
        String zoneProblem = zoneProblem(name, customerNo, zoneValue, warnings);
        return zoneProblem != null ? CustomerCheck.reject(zoneProblem) : CustomerCheck.send(warnings);
    }

    private String zoneProblem(String name, String customerNo, String zoneValue, List<String> warnings) {
        boolean hasZone = !zoneValue.isEmpty();
        if (zonePresence == ZonePresence.UNUSED) {
            if (hasZone) {
                warnings.add("customer_no_zone " + zoneValue + " is not used by " + name
                        + "; sent as written, the provider ignores it or refuses the order");
            }
            return null;
        }
        if (!hasZone) {
            boolean inside = zoneInsideCustomerNo != null && zoneInsideCustomerNo.matcher(customerNo).find();
            return zonePresence == ZonePresence.REQUIRED && !inside
                    ? "customer_no_zone is required for " + name + ": " + zone.expectation()
                    : null;
        }
        if (!zone.fits(zoneValue)) {
            return "customer_no_zone must be " + zone.expectation();
        }
        if (!zone.isUsualValue(zoneValue)) {
            String doubt = "customer_no_zone " + zoneValue + " is not one of the usual " + name + " values ("
                    + String.join(", ", zone.values()) + ")";
            if (strict) {
                return doubt + "; the customer rules accept only these for " + name;
            }
            warnings.add(doubt + "; sent anyway, the provider decides");
        }
        return null;
    }

    private static Optional<String> controlCharacter(String field, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                return Optional.of(field + " holds a control character (" + String.format("U+%04X", (int) c)
                        + " at position " + (i + 1) + "); no customer has one, remove it");
            }
        }
        return Optional.empty();
    }
}
