// The Snowball Polish stemmer for the browser.
//
// Hand-ported from snowballstemmer's polish_stemmer.py (generated from polish.sbl by Snowball
// 3.1.1, https://snowballstem.org/) into the form Snowball's JavaScript generator writes, on top
// of the BaseStemmer that Sphinx ships. Sphinx has no JavaScript Polish stemmer yet; the search
// index is stemmed in Python, so the query must be stemmed by the same algorithm here.
// The among tables are not copied by hand: havoc.sphinxext.search_pl generates them from the
// installed Python stemmer at build time (the @TABLES@ marker below), and a test runs this file
// in node against the Python stemmer on a Polish word list.
//
// Snowball is Copyright (c) 2001 Dr Martin Porter, Copyright (c) 2004-2025 Richard Boulton and
// Olly Betts, and is distributed under the BSD 3-Clause license.

/**@constructor*/
var PolishStemmer = function() {
    var base = new BaseStemmer();

    /*@TABLES@*/

    var /** number */ I_p1 = 0;

    /** @return {boolean} */
    function r_mark_regions() {
        I_p1 = base.limit;
        if (!base.go_out_grouping(g_v, g_v_min, g_v_max))
        {
            return false;
        }
        base.cursor++;
        if (!base.go_in_grouping(g_v, g_v_min, g_v_max))
        {
            return false;
        }
        base.cursor++;
        I_p1 = base.cursor;
        return true;
    };

    /** @return {boolean} */
    function r_R1() {
        return I_p1 <= base.cursor;
    };

    /** @return {boolean} */
    function r_remove_endings() {
        var /** number */ among_var;
        /** @const */ var /** number */ v_1 = base.limit - base.cursor;
        lab0: {
            if (base.cursor < I_p1)
            {
                break lab0;
            }
            /** @const */ var /** number */ v_3 = base.limit_backward;
            base.limit_backward = I_p1;
            base.ket = base.cursor;
            if (base.find_among_b(a_0) == 0)
            {
                base.limit_backward = v_3;
                break lab0;
            }
            base.bra = base.cursor;
            base.limit_backward = v_3;
            if (!base.slice_del())
            {
                return false;
            }
        }
        base.cursor = base.limit - v_1;
        base.ket = base.cursor;
        among_var = base.find_among_b(a_2);
        if (among_var == 0)
        {
            return false;
        }
        base.bra = base.cursor;
        switch (among_var) {
            case 1:
                if (!base.slice_del())
                {
                    return false;
                }
                break;
            case 2:
                if (!base.slice_from("s"))
                {
                    return false;
                }
                break;
            case 3:
                lab1: {
                    /** @const */ var /** number */ v_4 = base.limit - base.cursor;
                    lab2: {
                        if (!r_R1())
                        {
                            break lab2;
                        }
                        if (!base.slice_del())
                        {
                            return false;
                        }
                        break lab1;
                    }
                    base.cursor = base.limit - v_4;
                    if (!base.slice_from("s"))
                    {
                        return false;
                    }
                }
                break;
            case 4:
                if (!base.slice_from("\u0142"))
                {
                    return false;
                }
                break;
            case 5:
                if (!base.slice_del())
                {
                    return false;
                }
                /** @const */ var /** number */ v_5 = base.limit - base.cursor;
                lab3: {
                    base.ket = base.cursor;
                    among_var = base.find_among_b(a_1);
                    if (among_var == 0)
                    {
                        base.cursor = base.limit - v_5;
                        break lab3;
                    }
                    base.bra = base.cursor;
                    if (!base.slice_from(as_1[among_var - 1]))
                    {
                        return false;
                    }
                }
                break;
        }
        /** @const */ var /** number */ v_6 = base.limit - base.cursor;
        lab4: {
            base.ket = base.cursor;
            if (base.cursor <= base.limit_backward || base.current.charAt(base.cursor - 1) != "'")
            {
                base.cursor = base.limit - v_6;
                break lab4;
            }
            base.cursor--;
            base.bra = base.cursor;
            if (!base.slice_del())
            {
                return false;
            }
        }
        return true;
    };

    /** @return {boolean} */
    function r_normalize_consonant() {
        var /** number */ among_var;
        base.ket = base.cursor;
        among_var = base.find_among_b(a_3);
        if (among_var == 0)
        {
            return false;
        }
        base.bra = base.cursor;
        if (base.cursor <= base.limit_backward)
        {
            return false;
        }
        if (!base.slice_from(as_3[among_var - 1]))
        {
            return false;
        }
        return true;
    };

    this.stem = /** @return {boolean} */ function() {
        /** @const */ var /** number */ v_1 = base.cursor;
        r_mark_regions();
        base.cursor = v_1;
        lab0: {
            /** @const */ var /** number */ v_2 = base.cursor;
            lab1: {
                if (base.cursor + 2 > base.limit)
                {
                    break lab1;
                }
                base.cursor += 2;
                base.limit_backward = base.cursor; base.cursor = base.limit;
                if (!r_remove_endings())
                {
                    break lab1;
                }
                base.cursor = base.limit_backward;
                break lab0;
            }
            base.cursor = v_2;
            base.limit_backward = base.cursor; base.cursor = base.limit;
            if (!r_normalize_consonant())
            {
                return false;
            }
            base.cursor = base.limit_backward;
        }
        return true;
    };

    /**@return{string}*/
    this['stemWord'] = function(/**string*/word) {
        base.setCurrent(word);
        this.stem();
        return base.getCurrent();
    };
};
