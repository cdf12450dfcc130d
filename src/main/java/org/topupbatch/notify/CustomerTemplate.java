package org.topupbatch.notify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.topupbatch.settings.SettingsException;

/**
 * The customer's message (docs/customer-messages.md): the reseller's text file
 * ({@code topup.customer.template}) or the Indonesian text in the jar, with plain placeholders
 * {@code {product}}, {@code {serial}}, {@code {reseller}}, {@code {ref_id}} and {@code {customer_no}}.
 * A first line {@code Subject: ...} is the e-mail's subject (WhatsApp and SMS get the rest only). A
 * placeholder the product does not know is refused at start, in one line naming it and the file, so
 * that no customer ever gets a literal {@code {seral}}. Nothing else is interpreted: a value is put in
 * as it is, never read as a placeholder itself.
 */
public final class CustomerTemplate {

    public static final List<String> PLACEHOLDERS = List.of("product", "serial", "reseller", "ref_id", "customer_no");
    static final String DEFAULT = "/customer/message-id.txt";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_]+)}");
    private static final String SUBJECT = "Subject:";

    private final String subject;
    private final String text;

    CustomerTemplate(String written, String where) {
        String all = written.replace("\r\n", "\n").strip();
        Matcher m = PLACEHOLDER.matcher(all);
        while (m.find()) {
            if (!PLACEHOLDERS.contains(m.group(1))) {
                throw new SettingsException(where + ": unknown placeholder {" + m.group(1) + "} (known: {"
                        + String.join("} {", PLACEHOLDERS) + "})");
            }
        }
        if (all.regionMatches(true, 0, SUBJECT, 0, SUBJECT.length())) {
            int end = all.indexOf('\n') < 0 ? all.length() : all.indexOf('\n');
            this.subject = all.substring(SUBJECT.length(), end).strip();
            this.text = all.substring(end).strip();
        } else {
            this.subject = "Voucher {product}";
            this.text = all;
        }
    }

    /** The reseller's file, or the text in the jar when {@code file} is null; one line when it cannot be read. */
    public static CustomerTemplate load(Path file) {
        if (file == null) {
            try (InputStream in = CustomerTemplate.class.getResourceAsStream(DEFAULT)) {
                return new CustomerTemplate(new String(in.readAllBytes(), StandardCharsets.UTF_8), "the default template");
            } catch (IOException e) {
                throw new IllegalStateException("the jar's customer template cannot be read", e);
            }
        }
        try {
            return new CustomerTemplate(Files.readString(file, StandardCharsets.UTF_8), "topup.customer.template " + file);
        } catch (IOException e) {
            throw new SettingsException("topup.customer.template: " + file + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** The e-mail subject with {@code values} put in. */
    public String subject(Map<String, String> values) {
        return fill(subject, values);
    }

    /** The message text with {@code values} put in. */
    public String text(Map<String, String> values) {
        return fill(text, values);
    }

    private static String fill(String template, Map<String, String> values) {
        return PLACEHOLDER.matcher(template).replaceAll(m -> Matcher.quoteReplacement(
                values.getOrDefault(m.group(1), "")));
    }
}
