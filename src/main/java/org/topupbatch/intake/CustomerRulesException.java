package org.topupbatch.intake;

/** The customer rules file cannot be used; the message names the file and the problem. */
public class CustomerRulesException extends RuntimeException {
    public CustomerRulesException(String message, Throwable cause) {
        super(message, cause);
    }
}
