# Dates as Assamese and Nepali write them (day, month name, year), with a 24-hour clock so no AM/PM
# words are needed; Django has none for Assamese. Digits become the language's own in
# games.support.i18n.digits, not here: Django formats numbers with ASCII digits only.
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
