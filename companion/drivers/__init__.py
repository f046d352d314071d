"""The only code that touches hardware: buttons, display, dice roller, buzzer, keyboard."""
