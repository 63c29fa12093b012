"""The games a board keeps: the USB data link they come over (link, linkproto), the database
they are pulled into (`lunchbox pull`), and what is read from it (`history`, `replay`,
`stats`, `export`); `lunchbox push` sends settings back over the same link."""
