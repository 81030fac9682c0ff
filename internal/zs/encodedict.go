package zs

import "fmt"

// EncodeDict compresses data with dictionary id (0 for none), as Encode does for a name: for
// a file saved back with the dictionary its own frame named, whatever it is called now.
func (c *Codec) EncodeDict(id uint32, data []byte) ([]byte, error) {
	enc, err := c.encoder(id)
	if err != nil {
		return nil, fmt.Errorf("zs: encode: %w", err)
	}
	return enc.EncodeAll(data, make([]byte, 0, len(data)/2+64)), nil
}
